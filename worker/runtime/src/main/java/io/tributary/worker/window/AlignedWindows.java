package io.tributary.worker.window;

/**
 * Assigns tumbling and sliding windows aligned to the epoch: a window starts at every multiple of
 * {@code slide} and lasts {@code size} (tumbling: {@code slide == size}).
 *
 * <p>The windows of the last call are cached, so consecutive records of the same slide period
 * share one array and allocate nothing. The returned array must not be modified.
 */
final class AlignedWindows implements WindowAssigner {
  private static final TimeWindow[] NONE = new TimeWindow[0];

  private final long size;
  private final long slide;
  private long cachedLastStart;
  private TimeWindow[] cached;

  AlignedWindows(long size, long slide) {
    if (size <= 0 || slide <= 0) {
      throw new IllegalArgumentException(
          "window size and slide must be positive, got size " + size + ", slide " + slide);
    }
    this.size = size;
    this.slide = slide;
  }

  /**
   * The windows that contain {@code ts}, latest start first; empty only when {@code slide > size}
   * leaves {@code ts} in a gap between windows.
   */
  @Override
  public TimeWindow[] assign(long ts) {
    long lastStart = ts - Math.floorMod(ts, slide);
    long span = lastStart - ts + size;
    int count = span <= 0 ? 0 : (int) ((span + slide - 1) / slide);
    if (cached != null && lastStart == cachedLastStart && count == cached.length) {
      return cached;
    }
    TimeWindow[] windows = count == 0 ? NONE : new TimeWindow[count];
    for (int i = 0; i < count; i++) {
      long start = lastStart - i * slide;
      windows[i] = new TimeWindow(start, start + size);
    }
    cachedLastStart = lastStart;
    cached = windows;
    return windows;
  }
}
