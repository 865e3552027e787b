package io.tributary.scheduler.observe;

import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.TaskMetrics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rates from two {@link MetricsSnapshot}s of one attempt of a job: pure functions. A task's rates
 * are per second of the time between its two counters (each read by its own worker's clock), a
 * job's and an operator's the sums over tasks; times are milliseconds per second of it, 0..1000, of
 * the worst subtask. A watermark of {@code Long.MIN_VALUE} (none yet) or {@code Long.MAX_VALUE} (input
 * ended) is shown as absent.
 */
final class MetricRates {
  /** A watermark not to show. */
  static final long NONE = Long.MIN_VALUE;

  /**
   * The rates of a job.
   *
   * @param watermark the lowest over running tasks that are not idle (all running ones if every one
   *     is idle), or {@link #NONE}
   * @param busyTimeMsPerSecond of the busiest operator
   * @param backpressuredTimeMsPerSecond of the busiest operator
   */
  record JobRates(double recordsInPerSecond, double recordsOutPerSecond, long watermark, int busyTimeMsPerSecond,
      int backpressuredTimeMsPerSecond, List<OperatorMetricsView> operators) {}

  /** Records dropped as late and malformed records of one operator, since the job was created. */
  record Counts(long lateDropped, long malformed) {
    static final Counts ZERO = new Counts(0, 0);
  }

  private MetricRates() {}

  /**
   * The rates between {@code from} and {@code to}, two snapshots of the same run of {@code plan}
   * (null: no operators).
   *
   * @param from the older snapshot, or null: rates and times 0
   * @param to the newer snapshot, or null when the job does not run: everything 0, no watermark
   * @param atMillis the wall-clock time of {@code to}, for watermark lags
   * @param counts by operator id
   */
  static JobRates compute(ExecutionPlan plan, MetricsSnapshot from, MetricsSnapshot to, long atMillis,
      Map<String, Counts> counts) {
    Map<String, TaskMetrics> before = byTask(to == null ? null : from);
    List<OperatorMetricsView> ops = new ArrayList<>();
    OperatorMetricsView busiest = null;
    for (StagePlan stage : plan == null ? List.<StagePlan>of() : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        OperatorMetricsView v = operator(stage, op.id(), to, before, atMillis,
            counts.getOrDefault(op.id(), Counts.ZERO));
        ops.add(v);
        if (busiest == null || v.busyTimeMsPerSecond() > busiest.busyTimeMsPerSecond()) {
          busiest = v;
        }
      }
    }
    double in = 0;
    double out = 0;
    for (TaskMetrics t : to == null ? List.<TaskMetrics>of() : to.tasks()) {
      TaskMetrics prev = before.get(t.taskId());
      long window = prev == null ? 0 : t.atNanos() - prev.atNanos();
      if (window > 0) {
        in += t.source() ? perSecond(t.recordsIn() - prev.recordsIn(), window) : 0;
        out += perSecond(t.recordsOut() - prev.recordsOut(), window);
      }
    }
    return new JobRates(in, out, to == null ? NONE : watermark(to), busiest == null ? 0 : busiest.busyTimeMsPerSecond(),
        busiest == null ? 0 : busiest.backpressuredTimeMsPerSecond(), ops);
  }

  private static OperatorMetricsView operator(StagePlan stage, String id, MetricsSnapshot to,
      Map<String, TaskMetrics> before, long atMillis, Counts counts) {
    double in = 0;
    double out = 0;
    int busy = 0;
    int backpressured = 0;
    long watermark = Long.MAX_VALUE;
    boolean running = false;
    for (TaskMetrics t : to == null ? List.<TaskMetrics>of() : to.tasks()) {
      TaskMetrics.OperatorCounters now = t.stageId() == stage.id() ? find(t, id) : null;
      if (now == null) {
        continue;
      }
      if (!t.finished()) {
        running = true;
        watermark = Math.min(watermark, now.watermark());
      }
      TaskMetrics prevTask = before.get(t.taskId());
      TaskMetrics.OperatorCounters prev = prevTask == null ? null : find(prevTask, id);
      long window = prev == null ? 0 : t.atNanos() - prevTask.atNanos();
      if (window <= 0) {
        continue;
      }
      in += perSecond(now.recordsIn() - prev.recordsIn(), window);
      out += perSecond(now.recordsOut() - prev.recordsOut(), window);
      busy = Math.max(busy, msPerSecond(t.busyNanos() - prevTask.busyNanos(), window));
      backpressured = Math.max(backpressured, msPerSecond(t.backpressuredNanos() - prevTask.backpressuredNanos(),
          window));
    }
    long wm = running ? shown(watermark) : NONE;
    return new OperatorMetricsView(id, stage.id(), stage.parallelism(), in, out, instant(wm), lag(wm, atMillis), busy,
        backpressured, counts.lateDropped(), counts.malformed(), null, null);
  }

  /** The lowest watermark of the running tasks that are not idle (of all running ones if all are idle). */
  static long watermark(MetricsSnapshot s) {
    long active = Long.MAX_VALUE;
    long all = Long.MAX_VALUE;
    boolean anyActive = false;
    boolean any = false;
    for (TaskMetrics t : s.tasks()) {
      if (t.finished()) {
        continue;
      }
      any = true;
      all = Math.min(all, t.watermark());
      if (!t.idle()) {
        anyActive = true;
        active = Math.min(active, t.watermark());
      }
    }
    return !any ? NONE : shown(anyActive ? active : all);
  }

  /** Events per second for {@code delta} events in {@code nanos}. */
  static double perSecond(long delta, long nanos) {
    return nanos <= 0 ? 0 : Math.max(0, delta) * 1e9 / nanos;
  }

  /** {@code deltaNanos} of {@code windowNanos} as milliseconds per second, 0..1000. */
  static int msPerSecond(long deltaNanos, long windowNanos) {
    if (windowNanos <= 0) {
      return 0;
    }
    long ms = Math.round(deltaNanos * 1000.0 / windowNanos);
    return (int) Math.max(0, Math.min(1000, ms));
  }

  static Instant instant(long watermark) {
    return watermark == NONE ? null : Instant.ofEpochMilli(watermark);
  }

  static Long lag(long watermark, long atMillis) {
    return watermark == NONE ? null : atMillis - watermark;
  }

  private static long shown(long watermark) {
    return watermark == Long.MAX_VALUE ? NONE : watermark;
  }

  private static TaskMetrics.OperatorCounters find(TaskMetrics t, String id) {
    for (TaskMetrics.OperatorCounters o : t.operators()) {
      if (o.operatorId().equals(id)) {
        return o;
      }
    }
    return null;
  }

  private static Map<String, TaskMetrics> byTask(MetricsSnapshot s) {
    Map<String, TaskMetrics> m = new HashMap<>();
    if (s != null) {
      for (TaskMetrics t : s.tasks()) {
        m.put(t.taskId(), t);
      }
    }
    return m;
  }
}
