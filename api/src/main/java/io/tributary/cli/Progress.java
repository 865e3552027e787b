package io.tributary.cli;

import io.tributary.protocol.AttemptId;
import io.tributary.scheduler.observe.JobMetricsTracker;
import io.tributary.scheduler.observe.MetricsSnapshot;
import java.io.PrintStream;
import java.time.Instant;

/**
 * Prints one progress line of the current attempt: records in and out with rates, watermark, late
 * and malformed counts (from the workers' latest metrics reports).
 */
final class Progress {
  private final JobMetricsTracker metrics;
  private final PrintStream out;
  private final long start = System.nanoTime();
  private long lastNanos = start;
  private AttemptId lastAttempt;
  private long lastIn;
  private long lastOut;

  Progress(JobMetricsTracker metrics, PrintStream out) {
    this.metrics = metrics;
    this.out = out;
  }

  void report() {
    AttemptId attempt = metrics.attempt();
    if (attempt == null) {
      return; // nothing ran yet
    }
    if (!attempt.equals(lastAttempt)) {
      lastAttempt = attempt; // a new attempt counts from 0
      lastIn = 0;
      lastOut = 0;
    }
    MetricsSnapshot s = metrics.latest();
    long now = System.nanoTime();
    long in = s.recordsIn();
    long outRecords = s.recordsOut();
    double secs = Math.max(1e-9, (now - lastNanos) / 1e9);
    out.printf("[%5.1fs] in %,d (%,.0f/s)  out %,d (%,.0f/s)  watermark %s  late dropped %,d  malformed %,d%n",
        (now - start) / 1e9, in, (in - lastIn) / secs, outRecords, (outRecords - lastOut) / secs,
        watermark(s.watermark()), s.lateDropped(), s.malformed());
    lastNanos = now;
    lastIn = in;
    lastOut = outRecords;
  }

  static String watermark(long wm) {
    if (wm == Long.MIN_VALUE) {
      return "none yet";
    }
    if (wm == Long.MAX_VALUE) {
      return "end of input";
    }
    return Instant.ofEpochMilli(wm).toString();
  }
}
