package io.tributary.worker.task;

import io.tributary.stream.Record;
import io.tributary.worker.state.RecordCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The records one task logs for an unaligned checkpoint: those that were in flight before the
 * checkpoint's barrier on its channels when it snapshotted. Each goes with the chain head and input
 * it fed and, when it came over a hash exchange, its key group, so that a restore at any parallelism
 * gives it to exactly one new subtask.
 *
 * <p>Format, self-contained: {@code 'T' 'I' 'F' 1}, then per record {@code 1}, the head's operator id
 * (modified UTF-8), the input (byte), the key group (int, -1 for none) and the record
 * ({@link RecordCodec}); then {@code 0}. Held in memory until the checkpoint's last barrier came: at
 * most what the channels' credits and the senders' queues held when the task snapshotted.
 */
final class InFlightLog {
  private static final int MAGIC = 'T' << 24 | 'I' << 16 | 'F' << 8 | 1;

  /** One logged record. */
  record Entry(String head, int input, int keyGroup, Record record) {}

  /** A complete log: its bytes, and per chain head how many records it holds for it. */
  record Sealed(byte[] bytes, Map<String, Long> recordsByHead) {
    long records() {
      return recordsByHead.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(bytes);
  private final Map<String, Long> recordsByHead = new LinkedHashMap<>();

  InFlightLog() {
    try {
      out.writeInt(MAGIC);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in memory: does not happen
    }
  }

  void add(String head, int input, int keyGroup, Record record) {
    try {
      out.writeByte(1);
      out.writeUTF(head);
      out.writeByte(input);
      out.writeInt(keyGroup);
      RecordCodec.INSTANCE.write(record, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    recordsByHead.merge(head, 1L, Long::sum);
  }

  long records() {
    return recordsByHead.values().stream().mapToLong(Long::longValue).sum();
  }

  Sealed seal() {
    try {
      out.writeByte(0);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Sealed(bytes.toByteArray(), Map.copyOf(recordsByHead));
  }

  /** Reads a log written by {@link #seal()}; {@code name} names it in errors. */
  static void read(String name, byte[] log, java.util.function.Consumer<Entry> each) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(log))) {
      if (in.readInt() != MAGIC) {
        throw new RestoreException("'" + name + "' is not a log of in-flight records");
      }
      while (in.readByte() == 1) {
        String head = in.readUTF();
        int input = in.readByte();
        int keyGroup = in.readInt();
        each.accept(new Entry(head, input, keyGroup, RecordCodec.INSTANCE.read(in)));
      }
    } catch (IOException e) {
      throw new RestoreException("in-flight records '" + name + "' are truncated or corrupt: " + e);
    }
  }
}
