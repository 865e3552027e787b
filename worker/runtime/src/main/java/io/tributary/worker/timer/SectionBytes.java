package io.tributary.worker.timer;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The bytes of one key group's section of a timer snapshot, shared by every {@link TimerSection}
 * cursor over it: the task thread's and the copies snapshots take to other threads. Either already
 * in memory (a slice of a snapshot read whole) or read from a {@link TimerSnapshotSource} when a
 * cursor first needs them, with one ranged read of exactly the section, at most once however many
 * cursors and threads ask (a failed read is tried again by the next one). Thread-safe.
 */
final class SectionBytes {
  private final TimerSnapshotSource source;
  private final long offset;
  private final int length;
  private final int start;
  private final int keyGroup;
  private byte[] data;

  private SectionBytes(TimerSnapshotSource source, long offset, byte[] data, int start, int length, int keyGroup) {
    this.source = source;
    this.offset = offset;
    this.data = data;
    this.start = start;
    this.length = length;
    this.keyGroup = keyGroup;
  }

  /** The section at {@code offset} of {@code data}. */
  static SectionBytes inMemory(byte[] data, int offset, int length, int keyGroup) {
    return new SectionBytes(null, offset, data, offset, length, keyGroup);
  }

  /** The section at {@code offset} of {@code source}, not read yet. */
  static SectionBytes ranged(TimerSnapshotSource source, long offset, int length, int keyGroup) {
    return new SectionBytes(source, offset, null, 0, length, keyGroup);
  }

  /**
   * The bytes holding the section at {@link #start()}, read now if they were not yet.
   *
   * @throws UncheckedIOException when they cannot be read
   */
  synchronized byte[] data() {
    if (data == null) {
      try {
        data = source.read(offset, length);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read timers " + source.name() + " (key group " + keyGroup + "): " + e.getMessage(), e);
      }
    }
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
