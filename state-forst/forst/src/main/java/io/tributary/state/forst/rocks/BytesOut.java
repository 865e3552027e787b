package io.tributary.state.forst.rocks;

import java.io.DataOutput;
import java.util.Arrays;

/**
 * A growable, reusable byte buffer that codecs write into: the hot path serializes keys and values
 * here without allocating. {@link #truncate} keeps a prefix (the current key) and drops the rest.
 * Not thread-safe.
 */
final class BytesOut implements DataOutput {
  private byte[] buf;
  private int size;

  BytesOut(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  byte[] array() {
    return buf;
  }

  int size() {
    return size;
  }

  void truncate(int newSize) {
    size = newSize;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  private void ensure(int extra) {
    if (size + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
    }
  }

  /** Writes an unsigned LEB128 varint. */
  void writeVarInt(int v) {
    ensure(5);
    while ((v & ~0x7f) != 0) {
      buf[size++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b) {
    write(b, 0, b.length);
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }

  @Override
  public void writeBoolean(boolean v) {
    write(v ? 1 : 0);
  }

  @Override
  public void writeByte(int v) {
    write(v);
  }

  @Override
  public void writeShort(int v) {
    ensure(2);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  @Override
  public void writeChar(int v) {
    writeShort(v);
  }

  @Override
  public void writeInt(int v) {
    ensure(4);
    buf[size++] = (byte) (v >>> 24);
    buf[size++] = (byte) (v >>> 16);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  @Override
  public void writeLong(long v) {
    ensure(8);
    for (int s = 56; s >= 0; s -= 8) {
      buf[size++] = (byte) (v >>> s);
    }
  }

  @Override
  public void writeFloat(float v) {
    writeInt(Float.floatToIntBits(v));
  }

  @Override
  public void writeDouble(double v) {
    writeLong(Double.doubleToLongBits(v));
  }

  @Override
  public void writeBytes(String s) {
    for (int i = 0; i < s.length(); i++) {
      write(s.charAt(i));
    }
  }

  @Override
  public void writeChars(String s) {
    for (int i = 0; i < s.length(); i++) {
      writeChar(s.charAt(i));
    }
  }

  /** Modified UTF-8 with a two-byte length, as {@link java.io.DataOutputStream#writeUTF}. */
  @Override
  public void writeUTF(String s) {
    int start = size;
    writeShort(0);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x0001 && c <= 0x007f) {
        write(c);
      } else if (c <= 0x07ff) {
        write(0xc0 | (c >> 6));
        write(0x80 | (c & 0x3f));
      } else {
        write(0xe0 | (c >> 12));
        write(0x80 | ((c >> 6) & 0x3f));
        write(0x80 | (c & 0x3f));
      }
    }
    int len = size - start - 2;
    if (len > 0xffff) {
      size = start;
      throw new IllegalArgumentException("string too long for writeUTF: " + len + " bytes");
    }
    buf[start] = (byte) (len >>> 8);
    buf[start + 1] = (byte) len;
  }
}
