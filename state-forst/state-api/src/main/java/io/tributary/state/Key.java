package io.tributary.state;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The key of keyed state: a tuple of field values (Long, Double, String, Boolean or null) with its
 * canonical serialized form, from which the key group is derived (contract C1).
 *
 * <p>Two keys are equal when their serialized forms are equal. The serialized form is stable across
 * processes and versions: it is what the exchange hashes and what durable state stores.
 */
public final class Key {
  private static final byte NULL = 0;
  private static final byte LONG = 1;
  private static final byte DOUBLE = 2;
  private static final byte STRING = 3;
  private static final byte TRUE = 4;
  private static final byte FALSE = 5;

  /** The field values; decoded from {@link #bytes} on first use for a key read back from bytes. */
  private volatile Object[] values;
  private final byte[] bytes;
  private final int hash;

  private Key(Object[] values, byte[] bytes) {
    this.values = values;
    this.bytes = bytes;
    this.hash = Murmur3.hash32(bytes, 0, bytes.length);
  }

  /** A key made of the given field values. The array is not copied and must not change afterwards. */
  public static Key of(Object... values) {
    return new Key(values, encode(values));
  }

  /**
   * The key of this serialized form. Its fields are decoded when first asked for: restoring a
   * million timers or state entries needs only the bytes and the hash.
   *
   * @throws IllegalArgumentException (now or when a field is first read) if the bytes are corrupt
   */
  public static Key fromBytes(byte[] bytes) {
    return new Key(null, bytes);
  }

  private Object[] values() {
    Object[] v = values;
    if (v == null) {
      v = decode(bytes);
      values = v;
    }
    return v;
  }

  /** The key group of this key among {@code maxParallelism} key groups. */
  public int keyGroup(int maxParallelism) {
    return KeyGroups.keyGroupForHash(hash, maxParallelism);
  }

  /** The murmur3 hash of the serialized form. */
  public int murmurHash() {
    return hash;
  }

  public int arity() {
    return values().length;
  }

  public Object get(int i) {
    return values()[i];
  }

  /** The serialized form; callers must not modify it. */
  public byte[] bytes() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Key other && other.hash == hash && Arrays.equals(other.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Arrays.toString(values());
  }

  private static byte[] encode(Object[] values) {
    int size = 0;
    byte[][] strings = null;
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (v == null || v instanceof Boolean) {
        size += 1;
      } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
        size += 9;
      } else if (v instanceof Number) {
        size += 9;
      } else {
        if (strings == null) {
          strings = new byte[values.length][];
        }
        strings[i] = v.toString().getBytes(StandardCharsets.UTF_8);
        size += 5 + strings[i].length;
      }
    }
    byte[] out = new byte[size];
    int p = 0;
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (v == null) {
        out[p++] = NULL;
      } else if (v instanceof Boolean b) {
        out[p++] = b ? TRUE : FALSE;
      } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
        out[p++] = LONG;
        p = putLong(out, p, ((Number) v).longValue());
      } else if (v instanceof Number n) {
        double d = n.doubleValue();
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 0x1p62) {
          // integral doubles hash like the equal long, so 7 and 7.0 are the same key
          out[p++] = LONG;
          p = putLong(out, p, (long) d);
        } else {
          out[p++] = DOUBLE;
          p = putLong(out, p, Double.doubleToLongBits(d));
        }
      } else {
        byte[] s = strings[i];
        out[p++] = STRING;
        out[p++] = (byte) (s.length >>> 24);
        out[p++] = (byte) (s.length >>> 16);
        out[p++] = (byte) (s.length >>> 8);
        out[p++] = (byte) s.length;
        System.arraycopy(s, 0, out, p, s.length);
        p += s.length;
      }
    }
    return p == size ? out : Arrays.copyOf(out, p);
  }

  private static Object[] decode(byte[] bytes) {
    Object[] tmp = new Object[bytes.length];
    int n = 0;
    int p = 0;
    while (p < bytes.length) {
      byte tag = bytes[p++];
      switch (tag) {
        case NULL -> tmp[n++] = null;
        case TRUE -> tmp[n++] = Boolean.TRUE;
        case FALSE -> tmp[n++] = Boolean.FALSE;
        case LONG -> {
          tmp[n++] = getLong(bytes, p);
          p += 8;
        }
        case DOUBLE -> {
          tmp[n++] = Double.longBitsToDouble(getLong(bytes, p));
          p += 8;
        }
        case STRING -> {
          int len = (bytes[p] & 0xff) << 24 | (bytes[p + 1] & 0xff) << 16 | (bytes[p + 2] & 0xff) << 8 | (bytes[p + 3] & 0xff);
          p += 4;
          tmp[n++] = new String(bytes, p, len, StandardCharsets.UTF_8);
          p += len;
        }
        default -> throw new IllegalArgumentException("corrupt key bytes: tag " + tag + " at " + (p - 1));
      }
    }
    return Arrays.copyOf(tmp, n);
  }

  private static int putLong(byte[] out, int p, long v) {
    for (int s = 56; s >= 0; s -= 8) {
      out[p++] = (byte) (v >>> s);
    }
    return p;
  }

  private static long getLong(byte[] in, int p) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = v << 8 | (in[p + i] & 0xff);
    }
    return v;
  }
}
