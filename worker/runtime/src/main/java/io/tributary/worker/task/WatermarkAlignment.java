package io.tributary.worker.task;

import io.tributary.plan.Durations;

/**
 * How far a task with event-time state lets one input channel's watermark run ahead of its slowest
 * before it holds that channel ({@link GateInput}): {@code TRIBUTARY_MAX_WATERMARK_DRIFT}, a
 * duration such as {@code 30s} or {@code off}, read by every worker process; {@link #DEFAULT_MILLIS}
 * when unset.
 */
public final class WatermarkAlignment {
  /** The event time one channel may run ahead of the slowest when nothing else is said. */
  public static final long DEFAULT_MILLIS = 10_000;
  public static final String ENV = "TRIBUTARY_MAX_WATERMARK_DRIFT";

  private WatermarkAlignment() {}

  /** The drift this process allows: from {@link #ENV}, 0 for off. */
  static long maxDriftMillis() {
    return parse(System.getenv(ENV));
  }

  /**
   * {@code value} as a drift in milliseconds: null or blank for the default, {@code off} for 0.
   *
   * @throws IllegalArgumentException naming {@link #ENV} when it is neither a duration nor off
   */
  static long parse(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT_MILLIS;
    }
    if (value.strip().equalsIgnoreCase("off")) {
      return 0;
    }
    try {
      long millis = Durations.parseMillis(value.strip());
      if (millis < 0) {
        throw new IllegalArgumentException("negative");
      }
      return millis;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(ENV + " must be a duration such as 30s, or off; got '" + value + "'", e);
    }
  }
}
