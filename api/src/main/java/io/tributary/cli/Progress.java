package io.tributary.cli;

import io.tributary.worker.job.JobMetrics;
import java.io.PrintStream;
import java.time.Instant;

/** Prints one progress line: records in and out with rates, watermark, late and malformed counts. */
final class Progress {
  private final JobMetrics metrics;
  private final PrintStream out;
  private final long start = System.nanoTime();
  private long lastNanos = start;
  private long lastIn;
  private long lastOut;

  Progress(JobMetrics metrics, PrintStream out) {
    this.metrics = metrics;
    this.out = out;
  }

  void report() {
    long now = System.nanoTime();
    long in = metrics.recordsIn();
    long outRecords = metrics.recordsOut();
    double secs = Math.max(1e-9, (now - lastNanos) / 1e9);
    out.printf("[%5.1fs] in %,d (%,.0f/s)  out %,d (%,.0f/s)  watermark %s  late dropped %,d  malformed %,d%n",
        (now - start) / 1e9, in, (in - lastIn) / secs, outRecords, (outRecords - lastOut) / secs,
        watermark(metrics.watermark()), metrics.lateDropped(), metrics.malformed());
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
