package io.tributary.bench.flink;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.stream.Record;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.core.io.InputStatus;

/**
 * Reads its splits one after the other with the Tributary connector's {@link SplitReader}, up to
 * {@value #BATCH} records per {@link #pollNext} (the batch a Tributary source task reads), each
 * converted by the {@link Input} and emitted with its event time.
 */
final class TributarySourceReader<T> implements SourceReader<T, TributarySplit> {
  static final int BATCH = 128;

  private final Input<T> input;
  private final SourceConnector connector;
  private final Deque<TributarySplit> pending = new ArrayDeque<>();
  private final Emitter emitter = new Emitter();
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private boolean noMoreSplits;
  private TributarySplit split;
  private SplitReader reader;

  TributarySourceReader(Input<T> input) {
    this.input = input;
    this.connector = input.connector();
  }

  @Override
  public void start() {}

  @Override
  public InputStatus pollNext(ReaderOutput<T> output) {
    if (reader == null && !openNext()) {
      return noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    }
    emitter.output = output;
    if (reader.read(emitter, BATCH) == SplitReader.END) {
      reader.close();
      reader = null;
      split = null;
    }
    return InputStatus.MORE_AVAILABLE;
  }

  private boolean openNext() {
    TributarySplit next = pending.poll();
    if (next == null) {
      return false;
    }
    split = next;
    reader = connector.open(connector.splitOf(next.id()), next.position());
    return true;
  }

  @Override
  public List<TributarySplit> snapshotState(long checkpointId) {
    List<TributarySplit> state = new ArrayList<>();
    if (reader != null) {
      state.add(new TributarySplit(split.id(), reader.position()));
    }
    state.addAll(pending);
    return state;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    if (reader != null || !pending.isEmpty() || noMoreSplits) {
      return CompletableFuture.completedFuture(null);
    }
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return available;
  }

  @Override
  public void addSplits(List<TributarySplit> splits) {
    pending.addAll(splits);
    wake();
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    wake();
  }

  private void wake() {
    available.complete(null);
  }

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
    }
  }

  /** Hands the connector's records to Flink. */
  private final class Emitter implements SplitOutput {
    ReaderOutput<T> output;

    @Override
    public void record(Record record) {
      T value = input.convert(record);
      output.collect(value, input.timestamp(value));
    }

    @Override
    public void malformed(String raw, String reason) {
      throw new IllegalStateException("a generator made a malformed record: " + reason);
    }
  }
}
