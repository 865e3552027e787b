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

  // equals and hashCode written out: a record's generated ones go through method handles that the
  // JIT does not always inline, and windows are hash keys on every record's path

  @Override
  public boolean equals(Object o) {
    return o instanceof TimeWindow w && w.start == start && w.end == end;
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(start) + Long.hashCode(end);
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ")";
  }
}
