package io.tributary.worker.exchange;

/** A network buffer: serialized stream elements in {@code data[0, length)}. */
public final class Buffer {
  /** Default buffer size (contract C2). */
  public static final int DEFAULT_SIZE = 32 * 1024;

  final byte[] data;
  int length;

  Buffer(int size) {
    this.data = new byte[size];
  }

  public byte[] data() {
    return data;
  }

  public int length() {
    return length;
  }
}
