package io.tributary.state.forst.rocks;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;

/** A reusable {@link DataInput} over a byte array region, for codecs reading state. Not thread-safe. */
final class BytesIn implements DataInput {
  private byte[] buf = new byte[0];
  private int pos;
  private int limit;

  BytesIn reset(byte[] bytes, int offset, int length) {
    buf = bytes;
    pos = offset;
    limit = offset + length;
    return this;
  }

  /** Bytes left before the limit. */
  int remaining() {
    return limit - pos;
  }

  int position() {
    return pos;
  }

  boolean hasRemaining() {
    return pos < limit;
  }

  int readVarInt() throws IOException {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = readUnsignedByte();
      v |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("corrupt varint at " + pos);
  }

  private void need(int n) throws EOFException {
    if (pos + n > limit) {
      throw new EOFException("state value ends after " + (limit - pos) + " more bytes, needed " + n);
    }
  }

  @Override
  public void readFully(byte[] b) throws IOException {
    readFully(b, 0, b.length);
  }

  @Override
  public void readFully(byte[] b, int off, int len) throws IOException {
    need(len);
    System.arraycopy(buf, pos, b, off, len);
    pos += len;
  }

  @Override
  public int skipBytes(int n) {
    int k = Math.min(n, limit - pos);
    pos += k;
    return k;
  }

  @Override
  public boolean readBoolean() throws IOException {
    return readByte() != 0;
  }

  @Override
  public byte readByte() throws IOException {
    need(1);
    return buf[pos++];
  }

  @Override
  public int readUnsignedByte() throws IOException {
    return readByte() & 0xff;
  }

  @Override
  public short readShort() throws IOException {
    return (short) readUnsignedShort();
  }

  @Override
  public int readUnsignedShort() throws IOException {
    need(2);
    int v = (buf[pos] & 0xff) << 8 | (buf[pos + 1] & 0xff);
    pos += 2;
    return v;
  }

  @Override
  public char readChar() throws IOException {
    return (char) readUnsignedShort();
  }

  @Override
  public int readInt() throws IOException {
    need(4);
    int v = (buf[pos] & 0xff) << 24 | (buf[pos + 1] & 0xff) << 16 | (buf[pos + 2] & 0xff) << 8
        | (buf[pos + 3] & 0xff);
    pos += 4;
    return v;
  }

  @Override
  public long readLong() throws IOException {
    need(8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = v << 8 | (buf[pos + i] & 0xff);
    }
    pos += 8;
    return v;
  }

  @Override
  public float readFloat() throws IOException {
    return Float.intBitsToFloat(readInt());
  }

  @Override
  public double readDouble() throws IOException {
    return Double.longBitsToDouble(readLong());
  }

  @Override
  public String readLine() {
    throw new UnsupportedOperationException("readLine is not supported by state codecs");
  }

  @Override
  public String readUTF() throws IOException {
    return DataInputStream.readUTF(this);
  }
}
