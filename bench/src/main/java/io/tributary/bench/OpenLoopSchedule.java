package io.tributary.bench;

import java.time.Duration;

/**
 * When the requests of an open-loop load are due: request {@code i} at {@code start + i / rate},
 * whatever happened to the requests before it. A request's latency is measured from when it was
 * due, not from when it could be sent, so a server that stalls is charged for every request the
 * stall delayed — the load generator does not back off and hide it ("coordinated omission").
 *
 * @param ratePerSecond requests per second, positive
 * @param duration how long the load lasts
 */
record OpenLoopSchedule(double ratePerSecond, Duration duration) {
  OpenLoopSchedule {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("the rate must be positive, not " + ratePerSecond);
    }
    if (duration.isNegative()) {
      throw new IllegalArgumentException("the duration must not be negative, not " + duration);
    }
  }

  /** The number of requests: those due before the duration ends. */
  long requests() {
    // i is due before the end when i / rate < duration; the epsilon absorbs rounding (50/s for 30 s is 1,500)
    return (long) Math.ceil(ratePerSecond * duration.toNanos() / 1e9 - 1e-9);
  }

  /** When request {@code i} is due, on the {@link System#nanoTime()} scale that {@code startNanos} is on. */
  long dueNanos(long startNanos, long i) {
    return startNanos + Math.round(i * 1e9 / ratePerSecond);
  }

  /** The latency of a request due at {@code dueNanos} that completed at {@code doneNanos}. */
  static long latency(long dueNanos, long doneNanos) {
    return Math.max(0, doneNanos - dueNanos);
  }
}
