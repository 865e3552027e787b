package io.tributary.bench.flink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A bounded Flink source over a Tributary source connector ({@link Input}): at parallelism P it
 * lists the connector's P splits as Tributary's placement does and gives split i to subtask i, so
 * each Flink subtask reads exactly what the Tributary subtask of the same index reads, in the same
 * order. Its enumerator's checkpoint is the splits not assigned yet.
 */
final class TributarySource<T> implements Source<T, TributarySplit, List<TributarySplit>> {
  private static final long serialVersionUID = 1L;

  private final Input<T> input;

  TributarySource(Input<T> input) {
    this.input = input;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SourceReader<T, TributarySplit> createReader(SourceReaderContext context) {
    return new TributarySourceReader<>(input);
  }

  @Override
  public SplitEnumerator<TributarySplit, List<TributarySplit>> createEnumerator(
      SplitEnumeratorContext<TributarySplit> context) {
    List<TributarySplit> splits = new ArrayList<>();
    input.connector().splits(context.currentParallelism()).forEach(s -> splits.add(new TributarySplit(s.id(), null)));
    return new StaticAssigner(context, splits);
  }

  @Override
  public SplitEnumerator<TributarySplit, List<TributarySplit>> restoreEnumerator(
      SplitEnumeratorContext<TributarySplit> context, List<TributarySplit> unassigned) {
    return new StaticAssigner(context, unassigned);
  }

  @Override
  public SimpleVersionedSerializer<TributarySplit> getSplitSerializer() {
    return TributarySplit.Serializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<List<TributarySplit>> getEnumeratorCheckpointSerializer() {
    return new SplitListSerializer();
  }

  /** The unassigned splits, each as {@link TributarySplit.Serializer} writes it. */
  private static final class SplitListSerializer implements SimpleVersionedSerializer<List<TributarySplit>> {
    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(List<TributarySplit> splits) throws IOException {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
        out.writeInt(splits.size());
        for (TributarySplit s : splits) {
          byte[] b = TributarySplit.Serializer.INSTANCE.serialize(s);
          out.writeInt(b.length);
          out.write(b);
        }
      }
      return bytes.toByteArray();
    }

    @Override
    public List<TributarySplit> deserialize(int version, byte[] serialized) throws IOException {
      try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(serialized))) {
        int n = in.readInt();
        List<TributarySplit> splits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          byte[] b = new byte[in.readInt()];
          in.readFully(b);
          splits.add(TributarySplit.Serializer.INSTANCE.deserialize(version, b));
        }
        return splits;
      }
    }
  }
}
