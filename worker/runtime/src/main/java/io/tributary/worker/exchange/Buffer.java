package io.tributary.worker.exchange;

/** A network buffer: serialized stream elements in {@code data[0, length)}. */
public final class Buffer {
  /** Default buffer size (contract C2). */
  public static final int DEFAULT_SIZE = 32 * 1024;

  final byte[] data;
  int length;

  public Buffer(int size) {
    this.data = new byte[size];
  }

  /** Sets how many bytes of {@link #data()} hold elements (a transport filling a received buffer). */
  public void setLength(int length) {
    if (length < 0 || length > data.length) {
      throw new IllegalArgumentException("length " + length + " outside [0, " + data.length + "]");
    }
    this.length = length;
  }

  public byte[] data() {
    return data;
  }

  public int length() {
    return length;
  }
}
