package io.tributary.state.forst.rocks;

import java.util.Arrays;

/**
 * Writes a shard holds back from RocksDB to apply them as one batch: a RocksDB write costs a few
 * microseconds of write-path overhead whatever its size, so a hundred of them in one batch cost
 * about half as much each. They are kept in RocksDB's own serialized {@code WriteBatch} form (a
 * header of sequence number and count, then per write a type byte, the key and the value, each with
 * a varint length; the default column family), which {@code new WriteBatch(byte[])} takes as it is.
 *
 * <p>The shard applies them before anything reads RocksDB in a way they could change: before an
 * iterator, a checkpoint or a filter rebuild, and before a point read of a key that {@link #mayHold}
 * says may be among them. A set of the held keys' hashes answers that without searching the batch.
 */
final class HeldWrites {
  /** RocksDB's record types (write_batch.cc, {@code ValueType}). */
  private static final byte DELETION = 0x0;
  private static final byte VALUE = 0x1;
  private static final byte MERGE = 0x2;
  private static final int HEADER = 12; // fixed64 sequence, fixed32 count
  private final int maxWrites;
  private final int maxBytes;
  private BytesOut rep;
  /** Open addressing set of the held keys' hashes (0 marks a free slot); twice {@code maxWrites} or more. */
  private final int[] hashes;
  private int count;

  /** At most {@code maxWrites} writes or about {@code maxBytes} bytes before {@link #full()}. */
  HeldWrites(int maxWrites, int maxBytes) {
    this.maxWrites = maxWrites;
    this.maxBytes = maxBytes;
    this.rep = newRep();
    this.hashes = new int[Integer.highestOneBit(Math.max(2, maxWrites) * 2) * 2];
    clear();
  }

  void put(byte[] key, int keyLen, byte[] value, int valueLen) {
    append(VALUE, key, keyLen);
    rep.writeVarInt(valueLen);
    rep.write(value, 0, valueLen);
  }

  void merge(byte[] key, int keyLen, byte[] value, int valueLen) {
    append(MERGE, key, keyLen);
    rep.writeVarInt(valueLen);
    rep.write(value, 0, valueLen);
  }

  void delete(byte[] key, int keyLen) {
    append(DELETION, key, keyLen);
  }

  private void append(byte type, byte[] key, int keyLen) {
    rep.write(type);
    rep.writeVarInt(keyLen);
    rep.write(key, 0, keyLen);
    count++;
    int mask = hashes.length - 1;
    int h = hash(key, keyLen);
    for (int i = h & mask; ; i = (i + 1) & mask) {
      if (hashes[i] == h) {
        return;
      }
      if (hashes[i] == 0) {
        hashes[i] = h;
        return;
      }
    }
  }

  /** Whether a write of {@code key[0, keyLen)} may be held; false only when certainly not. */
  boolean mayHold(byte[] key, int keyLen) {
    if (count == 0) {
      return false;
    }
    int mask = hashes.length - 1;
    int h = hash(key, keyLen);
    for (int i = h & mask; hashes[i] != 0; i = (i + 1) & mask) {
      if (hashes[i] == h) {
        return true;
      }
    }
    return false;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** Whether the writes held reached the bound: apply them. */
  boolean full() {
    return count >= maxWrites || rep.size() >= maxBytes;
  }

  int count() {
    return count;
  }

  /** Bytes of the held writes, serialized. */
  int bytes() {
    return rep.size();
  }

  /** The held writes as a serialized {@code WriteBatch}; afterwards nothing is held. */
  byte[] take() {
    byte[] b = serialized();
    clear();
    return b;
  }

  /**
   * The held writes as a serialized {@code WriteBatch}, still held: another thread may take this
   * copy while the owner only asks {@link #mayHold} until it {@link #clear clears} them.
   */
  byte[] serialized() {
    byte[] b = rep.toByteArray();
    for (int i = 0; i < 4; i++) {
      b[8 + i] = (byte) (count >>> (8 * i)); // fixed32, little-endian
    }
    return b;
  }

  private BytesOut newRep() {
    return new BytesOut(Math.min(maxBytes, 4096));
  }

  /** Forgets the held writes. */
  void clear() {
    if (rep.array().length > 4 * maxBytes) {
      rep = newRep(); // after one large value: let its buffer go
    }
    rep.truncate(0);
    for (int i = 0; i < HEADER; i++) {
      rep.write(0);
    }
    if (count > 0) {
      Arrays.fill(hashes, 0);
    }
    count = 0;
  }

  /** A non-zero hash of the key bytes. */
  private static int hash(byte[] key, int keyLen) {
    int h = io.tributary.state.Murmur3.hash32(key, 0, keyLen);
    return h == 0 ? 1 : h;
  }
}
