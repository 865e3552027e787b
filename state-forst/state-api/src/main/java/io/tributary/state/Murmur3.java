package io.tributary.state;

/**
 * MurmurHash3 x86_32 over a byte range: the hash of contract C1; and its 64-bit finalizer. Pure and
 * allocation-free.
 */
public final class Murmur3 {
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private Murmur3() {}

  public static int hash32(byte[] data, int offset, int length) {
    int h = 0;
    int end = offset + (length & ~3);
    for (int i = offset; i < end; i += 4) {
      int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | data[i + 3] << 24;
      h ^= mixK(k);
      h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
    }
    int k = 0;
    switch (length & 3) {
      case 3:
        k ^= (data[end + 2] & 0xff) << 16;
        // fall through
      case 2:
        k ^= (data[end + 1] & 0xff) << 8;
        // fall through
      case 1:
        k ^= data[end] & 0xff;
        h ^= mixK(k);
        break;
      default:
        break;
    }
    return fmix(h ^ length);
  }

  /** Murmur3's 64-bit finalizer: a cheap bijection on longs whose every input bit moves every output bit. */
  public static long fmix64(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 33);
  }

  private static int mixK(int k) {
    k *= C1;
    k = Integer.rotateLeft(k, 15);
    return k * C2;
  }

  private static int fmix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }
}
