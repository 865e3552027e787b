package io.tributary.bench.flink;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A split of a Tributary source as a Flink split: the Tributary split's id and where its reader
 * resumes ({@code SplitReader.position()}; null: from the start).
 */
record TributarySplit(String id, String position) implements SourceSplit {
  @Override
  public String splitId() {
    return id;
  }

  /** Writes a split as its id and position. */
  static final class Serializer implements SimpleVersionedSerializer<TributarySplit> {
    static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(TributarySplit split) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeUTF(split.id());
        out.writeBoolean(split.position() != null);
        if (split.position() != null) {
          out.writeUTF(split.position());
        }
      }
      return bytes.toByteArray();
    }

    @Override
    public TributarySplit deserialize(int version, byte[] serialized) throws IOException {
      try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
        String id = in.readUTF();
        return new TributarySplit(id, in.readBoolean() ? in.readUTF() : null);
      }
    }
  }
}
