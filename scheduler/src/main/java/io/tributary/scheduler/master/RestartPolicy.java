package io.tributary.scheduler.master;

import java.time.Duration;

/**
 * How a failed job restarts: from its latest completed checkpoint, after a backoff that doubles
 * from {@code initialBackoff} up to {@code maxBackoff}, at most {@code maxRestarts} times in a row
 * (a completed checkpoint since the last restart resets the count).
 */
public record RestartPolicy(int maxRestarts, Duration initialBackoff, Duration maxBackoff) {
  public static final RestartPolicy DEFAULT = new RestartPolicy(5, Duration.ofSeconds(1), Duration.ofSeconds(30));
  public static final RestartPolicy NEVER = new RestartPolicy(0, Duration.ZERO, Duration.ZERO);

  public RestartPolicy {
    if (maxRestarts < 0) {
      throw new IllegalArgumentException("maxRestarts must be >= 0, got " + maxRestarts);
    }
  }

  /** The wait before restart number {@code n} (1-based). */
  public Duration backoff(int n) {
    long ms = initialBackoff.toMillis();
    for (int i = 1; i < n && ms < maxBackoff.toMillis(); i++) {
      ms *= 2;
    }
    return Duration.ofMillis(Math.min(ms, maxBackoff.toMillis()));
  }
}
