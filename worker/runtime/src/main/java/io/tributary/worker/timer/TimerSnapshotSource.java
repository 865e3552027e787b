package io.tributary.worker.timer;

import io.tributary.state.store.ObjectStore;
import java.io.IOException;

/**
 * Where {@link HeapTimerService#restore(TimerSnapshotSource, io.tributary.state.StateCodec,
 * io.tributary.state.KeyGroupRange, int) a ranged restore} reads a timer snapshot from: ranges of its
 * bytes, or all of them. Must be thread-safe: the sections of a snapshot are read on the task thread
 * and by snapshots on other threads.
 */
public interface TimerSnapshotSource {
  /** What is read, for messages: such as the object's name. */
  String name();

  /**
   * {@code length} bytes from {@code offset}.
   *
   * @throws java.io.EOFException when the snapshot ends before {@code offset + length}
   */
  byte[] read(long offset, int length) throws IOException;

  /** All bytes of the snapshot. */
  byte[] readAll() throws IOException;

  /** Object {@code name} of {@code store}: ranged reads with {@link ObjectStore#getRange}. */
  static TimerSnapshotSource of(ObjectStore store, String name) {
    return new TimerSnapshotSource() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public byte[] read(long offset, int length) throws IOException {
        return store.getRange(name, offset, length);
      }

      @Override
      public byte[] readAll() throws IOException {
        return store.getBytes(name);
      }
    };
  }
}
