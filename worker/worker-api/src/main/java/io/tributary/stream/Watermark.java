package io.tributary.stream;

/**
 * Event time progress: no record with a timestamp at or below {@code timestamp} is expected any
 * more on this channel (records that still come are late).
 */
public record Watermark(long timestamp) implements StreamElement {
  /** The watermark sent when a bounded input ends: every window fires. */
  public static final Watermark MAX = new Watermark(Long.MAX_VALUE);
  /** The watermark before any progress. */
  public static final long NONE = Long.MIN_VALUE;
}
