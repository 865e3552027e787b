package io.tributary.worker.window;

/**
 * Assigns cumulating windows aligned to the epoch: every period of {@code size} starting at a
 * multiple of it has the windows {@code [start, start + k * step)} for {@code k = 1 .. size / step};
 * a timestamp belongs to those of its period that end after it. So a result per step shows the
 * period so far, as Flink SQL's {@code CUMULATE}.
 *
 * <p>The windows of the last call are cached, as in {@link AlignedWindows}: the returned array
 * must not be modified.
 */
final class CumulateWindows implements WindowAssigner {
  private final long size;
  private final long step;
  private long cachedStart = Long.MIN_VALUE;
  private TimeWindow[] cached;

  CumulateWindows(long size, long step) {
    if (size <= 0 || step <= 0 || size % step != 0) {
      throw new IllegalArgumentException("cumulate windows need a positive size that is a multiple of a positive "
          + "step, got size " + size + ", step " + step);
    }
    this.size = size;
    this.step = step;
  }

  /** The windows of {@code ts}'s period that end after it, the largest (ending last) first. */
  @Override
  public TimeWindow[] assign(long ts) {
    long start = ts - Math.floorMod(ts, size);
    long firstEnd = start + (Math.floorDiv(ts - start, step) + 1) * step;
    int count = (int) ((start + size - firstEnd) / step) + 1;
    if (cached != null && start == cachedStart && count == cached.length) {
      return cached;
    }
    TimeWindow[] windows = new TimeWindow[count];
    for (int i = 0; i < count; i++) {
      windows[i] = new TimeWindow(start, start + size - i * step);
    }
    cachedStart = start;
    cached = windows;
    return windows;
  }
}
