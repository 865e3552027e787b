package io.tributary.bench;

import java.util.Arrays;

/**
 * The latencies of one kind of request, every one of them kept (a benchmark run records tens of
 * thousands, not millions), and the failed requests. Thread-safe.
 */
final class LatencyRecorder {
  private long[] nanos = new long[1024];
  private int size;
  private long errors;
  private String firstError;

  synchronized void record(long latencyNanos) {
    if (size == nanos.length) {
      nanos = Arrays.copyOf(nanos, size * 2);
    }
    nanos[size++] = Math.max(0, latencyNanos);
  }

  synchronized void error(String why) {
    errors++;
    if (firstError == null) {
      firstError = why;
    }
  }

  /** The figures so far, with the throughput over {@code elapsedNanos}. */
  synchronized Summary summary(long elapsedNanos) {
    long[] sorted = Arrays.copyOf(nanos, size);
    Arrays.sort(sorted);
    double seconds = elapsedNanos / 1e9;
    return new Summary(size, errors, firstError,
        percentile(sorted, 0.50), percentile(sorted, 0.90), percentile(sorted, 0.99),
        size == 0 ? 0 : sorted[size - 1], seconds <= 0 ? 0 : size / seconds);
  }

  /**
   * The nearest-rank percentile of sorted values: the smallest value that at least a fraction
   * {@code p} of them do not exceed; 0 if there are none.
   */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
  }

  /** Latencies in nanoseconds; {@code perSecond} counts the requests that succeeded. */
  record Summary(long count, long errors, String firstError, long p50, long p90, long p99, long max,
      double perSecond) {}
}
