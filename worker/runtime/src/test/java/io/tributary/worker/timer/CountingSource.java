package io.tributary.worker.timer;

import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A timer snapshot in memory as a {@link TimerSnapshotSource}, recording each read; it can be made to fail. */
final class CountingSource implements TimerSnapshotSource {
  /** A ranged read: {@code length} bytes from {@code offset}. */
  record Range(long offset, int length) {}

  private final byte[] bytes;
  /** The ranged reads, in order. */
  final List<Range> ranges = new CopyOnWriteArrayList<>();
  /** Reads of all bytes. */
  final AtomicInteger wholeReads = new AtomicInteger();
  /** When not null, every read throws it. */
  volatile IOException failure;

  CountingSource(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public String name() {
    return "jobs/j/timers/window-0";
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    if (failure != null) {
      throw failure;
    }
    ranges.add(new Range(offset, length));
    if (offset + length > bytes.length) {
      throw new EOFException(name() + " ends before byte " + (offset + length));
    }
    return Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
  }

  @Override
  public byte[] readAll() throws IOException {
    if (failure != null) {
      throw failure;
    }
    wholeReads.incrementAndGet();
    return bytes.clone();
  }
}
