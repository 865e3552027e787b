package io.tributary.worker.timer;

/**
 * The bytes of one key group's section of a timer snapshot, shared by every {@link TimerSection}
 * cursor over it: the task thread's and the copies snapshots take to other threads. A slice of a
 * snapshot read whole.
 */
final class SectionBytes {
  private final byte[] data;
  private final int start;
  private final int length;
  private final int keyGroup;

  private SectionBytes(byte[] data, int start, int length, int keyGroup) {
    this.data = data;
    this.start = start;
    this.length = length;
    this.keyGroup = keyGroup;
  }

  /** The section at {@code offset} of {@code data}. */
  static SectionBytes inMemory(byte[] data, int offset, int length, int keyGroup) {
    return new SectionBytes(data, offset, length, keyGroup);
  }

  /** The bytes holding the section at {@link #start()}. */
  byte[] data() {
    return data;
  }

  /** Where the section starts in {@link #data()}. */
  int start() {
    return start;
  }

  int length() {
    return length;
  }

  int keyGroup() {
    return keyGroup;
  }
}
