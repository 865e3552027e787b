package io.tributary.scheduler.policy;

import java.time.Duration;

/**
 * What one project may use, the same for every project of a server (see the README's "Security
 * model" for the defaults and how to set them).
 *
 * @param jobs jobs a project may have (refused beyond: 429)
 * @param tokens API tokens a project may have (429)
 * @param parallelism the sum of the parallelism of a project's jobs that should run (429)
 * @param minCheckpointInterval the shortest checkpoint interval a spec may ask for (409)
 * @param maxRecordsPerSecond the highest rate a source may be set to run at: {@code
 *     maxRecordsPerSecond}, a Nexmark {@code eventRate}, a datagen {@code interval} (409)
 */
public record Quotas(int jobs, int tokens, int parallelism, Duration minCheckpointInterval,
    double maxRecordsPerSecond) {
  /** No limits: for a control plane embedded by code that trusts its callers (tests, benchmarks). */
  public static final Quotas UNLIMITED = new Quotas(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE,
      Duration.ZERO, Double.MAX_VALUE);
  /** A server's defaults. */
  public static final Quotas DEFAULTS = new Quotas(100, 50, 16, Duration.ofSeconds(1), 100_000);

  public Quotas {
    if (jobs < 0 || tokens < 0 || parallelism < 1 || minCheckpointInterval.isNegative() || !(maxRecordsPerSecond > 0)) {
      throw new IllegalArgumentException("quotas must not be negative, and parallelism and the rate at least 1");
    }
  }

  public Quotas withJobs(int n) {
    return new Quotas(n, tokens, parallelism, minCheckpointInterval, maxRecordsPerSecond);
  }

  public Quotas withTokens(int n) {
    return new Quotas(jobs, n, parallelism, minCheckpointInterval, maxRecordsPerSecond);
  }

  public Quotas withParallelism(int n) {
    return new Quotas(jobs, tokens, n, minCheckpointInterval, maxRecordsPerSecond);
  }

  public Quotas withMinCheckpointInterval(Duration d) {
    return new Quotas(jobs, tokens, parallelism, d, maxRecordsPerSecond);
  }

  public Quotas withMaxRecordsPerSecond(double r) {
    return new Quotas(jobs, tokens, parallelism, minCheckpointInterval, r);
  }
}
