package io.tributary.control;

import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.worker.job.LocalJob;
import io.tributary.worker.job.MetricsSnapshot;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The metrics of one managed job across its runs: samples of the running {@link LocalJob} taken
 * every second by {@link ControlMetrics}, from which {@link #view} computes rates over the last
 * {@value #WINDOW_SECONDS} seconds, and running totals that survive restarts (each run's counters
 * start at 0: when the sampled job changes, the old one is counted one last time — its counters
 * stay readable after it ended — and the new one from 0).
 *
 * <p>Thread-safe: sampled by the metrics thread, read by API threads, told of checkpoints by the
 * coordinator's thread.
 */
final class JobMetricsTracker {
  /** The longest window rates are averaged over. */
  static final int WINDOW_SECONDS = 3;

  private final ArrayDeque<MetricsSnapshot> samples = new ArrayDeque<>();
  private LocalJob sampled;
  /** The output samples of the last job sampled, kept after it ended. */
  private JobOutput lastOutput;
  /** The last snapshot of {@link #sampled} added to the totals, or null. */
  private MetricsSnapshot counted;
  private Instant sampledAt;
  private long recordsIn;
  private long recordsOut;
  private final Map<String, MetricRates.Counts> counts = new HashMap<>();
  private volatile CheckpointCoordinator.CheckpointStats lastCheckpoint;

  /**
   * Takes a sample of {@code live}, the job's running {@link LocalJob} (null when none runs).
   *
   * @param at the wall-clock time now
   */
  synchronized void sample(LocalJob live, Instant at) {
    if (live != sampled) {
      if (sampled != null) {
        count(sampled.metrics().snapshot()); // its last counters
      }
      sampled = live;
      counted = null;
      samples.clear();
    }
    sampledAt = at;
    if (live == null) {
      return;
    }
    if (samples.isEmpty()) {
      lastOutput = JobOutput.of(live); // the first sample of this job
    }
    MetricsSnapshot s = live.metrics().snapshot();
    count(s);
    samples.addLast(s);
    while (samples.size() > WINDOW_SECONDS + 1) {
      samples.removeFirst();
    }
  }

  /** Adds what changed since the last counted snapshot of the same job to the totals. */
  private void count(MetricsSnapshot s) {
    MetricsSnapshot base = counted;
    recordsIn += Math.max(0, s.recordsIn() - (base == null ? 0 : base.recordsIn()));
    recordsOut += Math.max(0, s.recordsOut() - (base == null ? 0 : base.recordsOut()));
    Map<String, long[]> now = perOperator(s);
    Map<String, long[]> before = base == null ? Map.of() : perOperator(base);
    now.forEach((id, c) -> {
      long[] b = before.getOrDefault(id, new long[2]);
      MetricRates.Counts old = counts.getOrDefault(id, MetricRates.Counts.ZERO);
      counts.put(id, new MetricRates.Counts(old.lateDropped() + Math.max(0, c[0] - b[0]),
          old.malformed() + Math.max(0, c[1] - b[1])));
    });
    counted = s;
  }

  private static Map<String, long[]> perOperator(MetricsSnapshot s) {
    Map<String, long[]> m = new HashMap<>();
    for (MetricsSnapshot.Task t : s.tasks()) {
      for (MetricsSnapshot.Operator o : t.operators()) {
        long[] c = m.computeIfAbsent(o.operatorId(), k -> new long[2]);
        c[0] += o.lateDropped();
        c[1] += o.malformed();
      }
    }
    return m;
  }

  /** A checkpoint or savepoint of the job completed. Any thread. */
  void checkpointCompleted(CheckpointCoordinator.CheckpointStats stats) {
    lastCheckpoint = stats;
  }

  /**
   * The job's metrics as of the last sample.
   *
   * @param plan the plan of the job's current (or last) run; its operators are listed
   * @param running whether the job runs now: else rates are 0 and there is no watermark
   * @param restarts the job's restarts so far
   */
  synchronized JobMetricsView view(ExecutionPlan plan, boolean running, long restarts, Instant now) {
    MetricsSnapshot to = running && !samples.isEmpty() ? samples.peekLast() : null;
    MetricsSnapshot from = to != null && samples.size() > 1 ? samples.peekFirst() : null;
    Instant at = sampledAt != null && to != null ? sampledAt : now;
    MetricRates.JobRates r = MetricRates.compute(plan, from, to, at.toEpochMilli(), counts);
    long late = 0;
    long malformed = 0;
    for (MetricRates.Counts c : counts.values()) {
      late += c.lateDropped();
      malformed += c.malformed();
    }
    CheckpointCoordinator.CheckpointStats cp = lastCheckpoint;
    return new JobMetricsView(at, r.recordsInPerSecond(), r.recordsOutPerSecond(), MetricRates.instant(r.watermark()),
        MetricRates.lag(r.watermark(), at.toEpochMilli()), r.busyTimeMsPerSecond(), r.backpressuredTimeMsPerSecond(),
        cp == null ? null : cp.durationMillis(), cp == null ? null : cp.stateBytes(), restarts, late, malformed,
        r.operators());
  }

  /** Records the job's sources read, over all its runs in this process. */
  synchronized long recordsInTotal() {
    return recordsIn;
  }

  /** Records the job's sinks wrote, over all its runs in this process. */
  synchronized long recordsOutTotal() {
    return recordsOut;
  }

  synchronized long lateDroppedTotal() {
    return counts.values().stream().mapToLong(MetricRates.Counts::lateDropped).sum();
  }

  synchronized long malformedTotal() {
    return counts.values().stream().mapToLong(MetricRates.Counts::malformed).sum();
  }

  CheckpointCoordinator.CheckpointStats lastCheckpoint() {
    return lastCheckpoint;
  }

  /** The output samples and plan of the job sampled last, which may have ended since, or null. */
  synchronized JobOutput lastOutput() {
    return lastOutput;
  }
}
