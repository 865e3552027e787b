package io.tributary.control;

import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.StagePlan;
import io.tributary.worker.job.MetricsSnapshot;
import io.tributary.worker.task.TaskTimes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rates from two {@link MetricsSnapshot}s of one run of a job: pure functions. Rates are per second
 * of the time between the snapshots; times are milliseconds per second of it, 0..1000, of the
 * worst subtask. A watermark of {@code Long.MIN_VALUE} (none yet) or {@code Long.MAX_VALUE} (input
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
    long window = from == null || to == null ? 0 : to.atNanos() - from.atNanos();
    Map<String, MetricsSnapshot.Task> before = byTask(window > 0 ? from : null);
    List<OperatorMetricsView> ops = new ArrayList<>();
    OperatorMetricsView busiest = null;
    for (StagePlan stage : plan == null ? List.<StagePlan>of() : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        OperatorMetricsView v = operator(stage, op.id(), to, before, window, atMillis,
            counts.getOrDefault(op.id(), Counts.ZERO));
        ops.add(v);
        if (busiest == null || v.busyTimeMsPerSecond() > busiest.busyTimeMsPerSecond()) {
          busiest = v;
        }
      }
    }
    double in = window > 0 ? perSecond(to.recordsIn() - from.recordsIn(), window) : 0;
    double out = window > 0 ? perSecond(to.recordsOut() - from.recordsOut(), window) : 0;
    return new JobRates(in, out, to == null ? NONE : watermark(to), busiest == null ? 0 : busiest.busyTimeMsPerSecond(),
        busiest == null ? 0 : busiest.backpressuredTimeMsPerSecond(), ops);
  }

  private static OperatorMetricsView operator(StagePlan stage, String id, MetricsSnapshot to,
      Map<String, MetricsSnapshot.Task> before, long window, long atMillis, Counts counts) {
    long in = 0;
    long out = 0;
    int busy = 0;
    int backpressured = 0;
    long watermark = Long.MAX_VALUE;
    boolean running = false;
    for (MetricsSnapshot.Task t : to == null ? List.<MetricsSnapshot.Task>of() : to.tasks()) {
      MetricsSnapshot.Operator now = t.stageId() == stage.id() ? find(t, id) : null;
      if (now == null) {
        continue;
      }
      if (!t.finished()) {
        running = true;
        watermark = Math.min(watermark, now.watermark());
      }
      MetricsSnapshot.Task prevTask = before.get(key(t));
      MetricsSnapshot.Operator prev = prevTask == null ? null : find(prevTask, id);
      if (prev == null) {
        continue;
      }
      in += Math.max(0, now.recordsIn() - prev.recordsIn());
      out += Math.max(0, now.recordsOut() - prev.recordsOut());
      TaskTimes.Sample a = prevTask.times();
      TaskTimes.Sample b = t.times();
      busy = Math.max(busy, msPerSecond(b.busyNanos() - a.busyNanos(), window));
      backpressured = Math.max(backpressured, msPerSecond(b.backpressuredNanos() - a.backpressuredNanos(), window));
    }
    long wm = running ? shown(watermark) : NONE;
    return new OperatorMetricsView(id, stage.id(), stage.parallelism(), window > 0 ? perSecond(in, window) : 0,
        window > 0 ? perSecond(out, window) : 0, instant(wm), lag(wm, atMillis), busy, backpressured,
        counts.lateDropped(), counts.malformed());
  }

  /** The lowest watermark of the running tasks that are not idle (of all running ones if all are idle). */
  static long watermark(MetricsSnapshot s) {
    long active = Long.MAX_VALUE;
    long all = Long.MAX_VALUE;
    boolean anyActive = false;
    boolean any = false;
    for (MetricsSnapshot.Task t : s.tasks()) {
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

  private static MetricsSnapshot.Operator find(MetricsSnapshot.Task t, String id) {
    for (MetricsSnapshot.Operator o : t.operators()) {
      if (o.operatorId().equals(id)) {
        return o;
      }
    }
    return null;
  }

  private static Map<String, MetricsSnapshot.Task> byTask(MetricsSnapshot s) {
    Map<String, MetricsSnapshot.Task> m = new HashMap<>();
    if (s != null) {
      for (MetricsSnapshot.Task t : s.tasks()) {
        m.put(key(t), t);
      }
    }
    return m;
  }

  private static String key(MetricsSnapshot.Task t) {
    return t.stageId() + "/" + t.subtask();
  }
}
