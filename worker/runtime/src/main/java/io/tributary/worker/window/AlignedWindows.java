package io.tributary.worker.window;

/**
 * Assigns tumbling and sliding windows aligned to the epoch: a window starts at every multiple of
 * {@code slide} and lasts {@code size} (tumbling: {@code slide == size}).
 *
 * <p>The windows of the last call are cached, so consecutive records of the same slide period
 * share one array and allocate nothing. The returned array must not be modified. The windows
 * themselves are kept by start for {@link #RECENT} slides, so a window is one object whichever
 * record's call made it: a key's window state finds a window by reference, not by comparing it to
 * each window of the key (a sliding window's next slide shares all its windows but one with this
 * one, and records a little out of order go back to an earlier slide).
 */
final class AlignedWindows implements WindowAssigner {
  private static final TimeWindow[] NONE = new TimeWindow[0];
  /** How many slides' windows are kept by start, a power of two. */
  static final int RECENT = 64;

  private final long size;
  private final long slide;
  private long cachedLastStart;
  private TimeWindow[] cached;
  /** The window starting at {@code start} in place {@code floorDiv(start, slide) % RECENT}, or null. */
  private final TimeWindow[] recent = new TimeWindow[RECENT];

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
      windows[i] = window(lastStart - i * slide);
    }
    cachedLastStart = lastStart;
    cached = windows;
    return windows;
  }

  /** The window that starts at {@code start}, a multiple of the slide: the one made last time if kept. */
  TimeWindow window(long start) {
    int place = (int) Math.floorDiv(start, slide) & (RECENT - 1);
    TimeWindow w = recent[place];
    if (w == null || w.start() != start) {
      w = new TimeWindow(start, start + size);
      recent[place] = w;
    }
    return w;
  }
}
