package io.tributary.state.forst.rocks;

import java.io.IOException;

/**
 * The writes a shard took since its last snapshot, as bytes: what a snapshot uploads instead of
 * flushing and checkpointing RocksDB when the shard is not due for materialization (see
 * {@link ForstKeyedStateBackend#snapshot}). Restoring replays the logged writes, in order, over the
 * shard's last materialized files, which makes the result exact: merges included, since a log
 * starts exactly where its base ends.
 *
 * <p>Layout, one record per write: an op byte ({@code P}ut, {@code M}erge, {@code D}elete), the
 * key (varint length, bytes), and for puts and merges the value (varint length, bytes).
 *
 * <p>A log that would grow past its limit between two snapshots stops recording and is marked
 * {@link #overflowed()}: the next snapshot materializes the shard instead (RocksDB holds every write
 * anyway), so a write-heavy shard costs no more memory than that. Used by the task thread only.
 */
final class ChangeLog {
  static final byte PUT = 'P';
  static final byte MERGE = 'M';
  static final byte DELETE = 'D';
  private final BytesOut buf = new BytesOut(256);
  private final int limit;
  private boolean overflowed;

  /** A log of at most {@code limit} bytes between two snapshots. */
  ChangeLog(int limit) {
    this.limit = limit;
  }

  void put(byte[] key, int keyLen, byte[] value, int valueLen) {
    append(PUT, key, keyLen, value, valueLen);
  }

  void merge(byte[] key, int keyLen, byte[] value, int valueLen) {
    append(MERGE, key, keyLen, value, valueLen);
  }

  void delete(byte[] key, int keyLen) {
    append(DELETE, key, keyLen, null, 0);
  }

  private void append(byte op, byte[] key, int keyLen, byte[] value, int valueLen) {
    if (overflowed) {
      return;
    }
    if (buf.size() + keyLen + valueLen + 11 > limit) {
      overflowed = true;
      buf.truncate(0);
      return;
    }
    buf.write(op);
    buf.writeVarInt(keyLen);
    buf.write(key, 0, keyLen);
    if (op != DELETE) {
      buf.writeVarInt(valueLen);
      buf.write(value, 0, valueLen);
    }
  }

  /** Bytes logged since the last {@link #take} or {@link #clear}. */
  int size() {
    return buf.size();
  }

  boolean overflowed() {
    return overflowed;
  }

  /** The logged bytes; the log is empty afterwards. */
  byte[] take() {
    byte[] bytes = buf.toByteArray();
    clear();
    return bytes;
  }

  /** Forgets what was logged (the shard was materialized, so its files hold it). */
  void clear() {
    buf.truncate(0);
    overflowed = false;
  }

  /** Receives the writes of a log, in order. */
  interface Target {
    void put(byte[] key, byte[] value);

    void merge(byte[] key, byte[] value);

    void delete(byte[] key);
  }

  /**
   * Replays the writes of {@code data[offset, offset + length)} into {@code target}.
   *
   * @throws IOException if the bytes are not a well-formed log
   */
  static int replay(byte[] data, int offset, int length, Target target) throws IOException {
    BytesIn in = new BytesIn().reset(data, offset, length);
    int n = 0;
    try {
      while (in.remaining() > 0) {
        byte op = in.readByte();
        byte[] key = bytes(in);
        switch (op) {
          case PUT -> target.put(key, bytes(in));
          case MERGE -> target.merge(key, bytes(in));
          case DELETE -> target.delete(key);
          default -> throw new IOException("unknown change-log op " + op + " after " + n + " writes");
        }
        n++;
      }
    } catch (java.io.EOFException | IndexOutOfBoundsException e) {
      throw new IOException("truncated change log after " + n + " writes", e);
    }
    return n;
  }

  private static byte[] bytes(BytesIn in) throws IOException {
    int len = in.readVarInt();
    if (len < 0 || len > in.remaining()) {
      throw new IOException("change-log entry of " + len + " bytes, only " + in.remaining() + " left");
    }
    byte[] b = new byte[len];
    in.readFully(b);
    return b;
  }
}
