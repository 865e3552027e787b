package io.tributary.state.forst.rocks;

import io.tributary.state.Murmur3;

/**
 * Which keys a shard may hold, answered on the heap: a Bloom filter over the key prefixes
 * ({@code stateId | key length | key}, see {@link ForstState}) of the entries written to it.
 *
 * <p>Why: the write-back cache reads every (key, namespace) it has not seen yet from RocksDB, and
 * most of those reads find nothing (a new key, a new window). Once a shard exists (after the first
 * snapshot or eviction wrote to it) each such miss is a JNI call that probes the memtable and every
 * level-0 file, several microseconds; a filter answers the same question in tens of nanoseconds.
 *
 * <p>What a caller may rely on: {@link #mayHold} is true for every prefix {@linkplain #add added}
 * (no false negatives) and for about 1% of the others while at most {@link #capacity} prefixes
 * were added. Removals are not tracked; once {@link #full}, the shard rebuilds its filter from the
 * keys it still holds. Not thread-safe: used by the task thread, like the shard's data.
 */
final class KeyFilter {
  /** The smallest capacity a filter is built with. */
  static final int MIN_CAPACITY = 4096;
  private static final int BITS_PER_KEY = 10;
  private static final int HASHES = 6;

  private final long[] words;
  private final long bitMask;
  private final int capacity;
  private int added;

  /** An empty filter for up to {@code capacity} prefixes (at least {@link #MIN_CAPACITY}). */
  KeyFilter(int capacity) {
    this.capacity = Math.max(MIN_CAPACITY, capacity);
    long bits = Long.highestOneBit((long) this.capacity * BITS_PER_KEY - 1) << 1; // a power of two
    this.words = new long[(int) (bits >>> 6)];
    this.bitMask = bits - 1;
  }

  /**
   * The length of the prefix {@code stateId | varint key length | key} of a RocksDB key; the whole
   * key when it is shorter than its own length field claims (never for keys this backend writes).
   */
  static int prefixLength(byte[] key, int keyLen) {
    int pos = 4;
    int len = 0;
    for (int shift = 0; pos < keyLen && shift < 35; shift += 7) {
      int b = key[pos++];
      len |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return Math.min(keyLen, pos + len);
      }
    }
    return keyLen;
  }

  /** Whether an entry with the prefix {@code key[0, prefixLen)} may have been added. */
  boolean mayHold(byte[] key, int prefixLen) {
    return mayHold(hash(key, prefixLen));
  }

  boolean mayHold(long hash) {
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 32);
    for (int i = 0; i < HASHES; i++) {
      long bit = (h1 + (long) i * h2) & bitMask;
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Adds the prefix {@code key[0, prefixLen)}; counts it only when it was not held yet. */
  void add(byte[] key, int prefixLen) {
    add(hash(key, prefixLen));
  }

  void add(long hash) {
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 32);
    boolean fresh = false;
    for (int i = 0; i < HASHES; i++) {
      long bit = (h1 + (long) i * h2) & bitMask;
      int w = (int) (bit >>> 6);
      long m = 1L << bit;
      fresh |= (words[w] & m) == 0;
      words[w] |= m;
    }
    if (fresh) {
      added++;
    }
  }

  /** Whether more prefixes were added than the filter was built for (its false positives grow). */
  boolean full() {
    return added > capacity;
  }

  int capacity() {
    return capacity;
  }

  /**
   * The 64-bit hash of the prefix {@code key[0, prefixLen)} ({@code stateId | varint key length |
   * key}): {@link #hash(int, int)} of its state id and the murmur3 hash of its key bytes, the same
   * as {@link io.tributary.state.Key#murmurHash()} of the key, so that a caller holding the key
   * asks without encoding or hashing anything.
   */
  static long hash(byte[] key, int prefixLen) {
    if (prefixLen < 5) {
      return hash(0, Murmur3.hash32(key, 0, prefixLen)); // never for keys this backend writes
    }
    int stateId = (key[0] & 0xff) << 24 | (key[1] & 0xff) << 16 | (key[2] & 0xff) << 8 | (key[3] & 0xff);
    int pos = 4;
    while (pos < prefixLen && (key[pos] & 0x80) != 0) {
      pos++;
    }
    pos = Math.min(pos + 1, prefixLen); // past the key length's last byte
    return hash(stateId, Murmur3.hash32(key, pos, prefixLen - pos));
  }

  /** The 64-bit hash of a key of a state: murmur3's 64-bit finaliser over both (a bijection). */
  static long hash(int stateId, int keyHash) {
    return Murmur3.fmix64((long) stateId << 32 | (keyHash & 0xffffffffL));
  }
}
