package io.tributary.worker.window;

/**
 * An event-time window {@code [start, end)} in epoch milliseconds. Its last timestamp,
 * {@link #maxTimestamp()}, is {@code end - 1}: the window fires when the watermark reaches it.
 */
public record TimeWindow(long start, long end) {
  public TimeWindow {
    if (end <= start) {
      throw new IllegalArgumentException("empty window [" + start + ", " + end + ")");
    }
  }

  /** The last timestamp that belongs to the window. */
  public long maxTimestamp() {
    return end - 1;
  }

  /** True when the windows overlap or touch; sessions that meet merge (as in Flink). */
  public boolean intersects(TimeWindow other) {
    return start <= other.end && end >= other.start;
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ")";
  }
}
