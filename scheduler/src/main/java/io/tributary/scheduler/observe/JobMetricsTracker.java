package io.tributary.scheduler.observe;

import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskMetrics;
import io.tributary.protocol.WorkerReport;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * What the control plane observes of one job across its attempts: the workers' metrics and output
 * reports of the current attempt, samples of them taken every second by {@link ControlMetrics}, from
 * which {@link #view} computes rates over the last {@value #WINDOW_SECONDS} seconds, running totals
 * that survive restarts (each attempt's counters start at 0: when an attempt ends or the next one
 * starts, its last counters are counted one last time), and the output samples of the current or
 * last attempt.
 *
 * <p>Thread-safe: fed by the job master's and the workers' threads, sampled by the metrics thread,
 * read by API threads.
 */
public final class JobMetricsTracker {
  /** The longest window rates are averaged over. */
  static final int WINDOW_SECONDS = 3;

  private final ArrayDeque<MetricsSnapshot> samples = new ArrayDeque<>();
  /** The attempt whose reports count, or null before the first. */
  private AttemptId attempt;
  private boolean running;
  /** The latest counters of each task of {@link #attempt}. */
  private final Map<String, TaskMetrics> latest = new HashMap<>();
  /** The output samples of {@link #attempt}, kept after it ended. */
  private JobOutput output;
  /** The last snapshot of {@link #attempt} added to the totals, or null. */
  private MetricsSnapshot counted;
  private Instant sampledAt;
  private long recordsIn;
  private long recordsOut;
  private final Map<String, MetricRates.Counts> counts = new HashMap<>();
  private volatile CheckpointCoordinator.CheckpointStats lastCheckpoint;
  /** Records the running attempt's sources have read, at the last sample; -1 before its first. */
  private long sourceRecords = -1;
  /** When the running attempt's sources last read a record (or it started), or null. */
  private Instant lastSourceInput;

  /** Attempt {@code id} of {@code plan} was deployed: its reports count from now on. */
  public synchronized void attemptStarted(AttemptId id, ExecutionPlan plan) {
    if (attempt != null) {
      count(current()); // the previous attempt's last counters
    }
    attempt = id;
    running = true;
    latest.clear();
    counted = null;
    samples.clear();
    output = JobOutput.of(id, plan);
    sourceRecords = -1;
    lastSourceInput = null;
  }

  /** Attempt {@code id} is over; its workers report no more. */
  public synchronized void attemptEnded(AttemptId id) {
    if (id.equals(attempt) && running) {
      count(current());
      running = false;
      samples.clear();
      lastSourceInput = null;
    }
  }

  /** A worker's metrics or output report; reports of other attempts are ignored. */
  public synchronized void report(WorkerReport r) {
    if (!r.attempt().equals(attempt)) {
      return;
    }
    if (r instanceof WorkerReport.Metrics m) {
      for (TaskMetrics t : m.tasks()) {
        latest.put(t.taskId(), t);
      }
    } else if (r instanceof WorkerReport.Output o) {
      SampleBuffer b = output.buffer(o.operatorId(), o.subtask());
      if (b != null) {
        b.add(o.records());
      }
    }
  }

  /**
   * Takes a sample of the latest counters of the running attempt.
   *
   * @param at the wall-clock time now
   */
  public synchronized void sample(Instant at) {
    sampledAt = at;
    if (!running) {
      return;
    }
    MetricsSnapshot s = current();
    count(s);
    long read = 0;
    for (TaskMetrics t : s.tasks()) {
      if (t.source()) {
        read += t.recordsIn();
      }
    }
    // until the attempt's tasks report, it is still being deployed: its sources' quiet time has not begun
    if (s.tasks().isEmpty() || read != sourceRecords || lastSourceInput == null) {
      sourceRecords = read;
      lastSourceInput = at;
    }
    samples.addLast(s);
    while (samples.size() > WINDOW_SECONDS + 1) {
      samples.removeFirst();
    }
  }

  /** The plan of the current or last attempt, or null before the first. */
  public synchronized ExecutionPlan plan() {
    return output == null ? null : output.plan();
  }

  /**
   * When the running attempt's sources last read a record, as of the samples (when its tasks first
   * reported, if they have read nothing: a slow deployment is not quiet time); null when no attempt
   * runs or none was sampled yet.
   */
  public synchronized Instant lastSourceInput() {
    return running ? lastSourceInput : null;
  }

  /** Whether an attempt of the job runs now. */
  public synchronized boolean running() {
    return running;
  }

  /** The attempt whose reports count now (running or ended), or null before the first. */
  public synchronized AttemptId attempt() {
    return attempt;
  }

  /** The latest counters of every task of {@link #attempt()}, as reported (empty before the first report). */
  public synchronized MetricsSnapshot latest() {
    return current();
  }

  private MetricsSnapshot current() {
    return new MetricsSnapshot(latest.values().stream()
        .sorted(Comparator.comparingInt(TaskMetrics::stageId).thenComparingInt(TaskMetrics::subtask)).toList());
  }

  /** Adds what changed since the last counted snapshot of the same attempt to the totals. */
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
    for (TaskMetrics t : s.tasks()) {
      for (TaskMetrics.OperatorCounters o : t.operators()) {
        long[] c = m.computeIfAbsent(o.operatorId(), k -> new long[2]);
        c[0] += o.lateDropped();
        c[1] += o.malformed();
      }
    }
    return m;
  }

  /** A checkpoint or savepoint of the job completed. Any thread. */
  public void checkpointCompleted(CheckpointCoordinator.CheckpointStats stats) {
    lastCheckpoint = stats;
  }

  /**
   * The job's metrics as of the last sample.
   *
   * @param plan the plan to list operators of when no attempt ran since the control plane started
   *     (else the current or last attempt's plan is used)
   * @param restarts the job's restarts so far
   */
  public synchronized JobMetricsView view(ExecutionPlan plan, long restarts, Instant now) {
    ExecutionPlan shown = output != null ? output.plan() : plan;
    MetricsSnapshot to = running && !samples.isEmpty() ? samples.peekLast() : null;
    MetricsSnapshot from = to != null && samples.size() > 1 ? samples.peekFirst() : null;
    Instant at = sampledAt != null && to != null ? sampledAt : now;
    MetricRates.JobRates r = MetricRates.compute(shown, from, to, at.toEpochMilli(), counts);
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
        cp == null ? r.operators() : r.operators().stream()
            .map(o -> o.withCheckpoint(cp.operatorStateBytes().get(o.operatorId()), cp.stageAckMillis().get(o.stageId())))
            .toList());
  }

  /** Records the job's sources read, over all its attempts in this process. */
  public synchronized long recordsInTotal() {
    return recordsIn;
  }

  /** Records the job's sinks wrote, over all its attempts in this process. */
  public synchronized long recordsOutTotal() {
    return recordsOut;
  }

  public synchronized long lateDroppedTotal() {
    return counts.values().stream().mapToLong(MetricRates.Counts::lateDropped).sum();
  }

  public synchronized long malformedTotal() {
    return counts.values().stream().mapToLong(MetricRates.Counts::malformed).sum();
  }

  public CheckpointCoordinator.CheckpointStats lastCheckpoint() {
    return lastCheckpoint;
  }

  /** The output samples and plan of the current or last attempt, or null if none ran in this process. */
  public synchronized JobOutput output() {
    return output;
  }
}
