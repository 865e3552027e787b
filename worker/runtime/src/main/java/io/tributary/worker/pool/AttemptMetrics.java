package io.tributary.worker.pool;

import io.tributary.protocol.TaskMetrics;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.task.OutputTap;
import io.tributary.worker.task.StreamTask;
import io.tributary.worker.task.TaskCounters;
import io.tributary.worker.task.TaskTimes;
import java.util.ArrayList;
import java.util.List;

/**
 * A live view over the counters of an attempt's tasks in this process: what its reports are made
 * of, and what in-process callers (progress of tests and benchmarks) may read directly. Any thread.
 */
public final class AttemptMetrics {
  private final List<StreamTask> tasks;

  AttemptMetrics(List<StreamTask> tasks) {
    this.tasks = tasks;
  }

  /** Records read by source tasks. */
  public long recordsIn() {
    long n = 0;
    for (StreamTask t : tasks) {
      if (t.isSource()) {
        n += t.counters().recordsIn();
      }
    }
    return n;
  }

  /** Records written by sinks. */
  public long recordsOut() {
    long n = 0;
    for (StreamTask t : tasks) {
      n += t.counters().recordsOut();
    }
    return n;
  }

  /** Every task's and operator's cumulative counters now. Cheap: no task is disturbed. */
  public List<TaskMetrics> snapshot() {
    List<TaskMetrics> out = new ArrayList<>(tasks.size());
    for (StreamTask t : tasks) {
      out.add(of(t, System.nanoTime()));
    }
    return out;
  }

  /** The counters of {@code t} now. */
  static TaskMetrics of(StreamTask t, long nowNanos) {
    TaskCounters c = t.counters();
    List<StreamTask.OperatorView> views = t.operators();
    List<TaskMetrics.OperatorCounters> ops = new ArrayList<>(views.size());
    for (StreamTask.OperatorView v : views) {
      OperatorMetrics m = v.metrics();
      ops.add(new TaskMetrics.OperatorCounters(v.operatorId(), m.recordsIn(), m.recordsOut(), m.watermark(),
          m.lateDropped(), m.malformed()));
    }
    TaskTimes.Sample times = t.times().read(nowNanos);
    return new TaskMetrics(nowNanos, t.stageId() + "/" + t.subtaskIndex(), t.name(), t.stageId(), t.subtaskIndex(),
        t.isSource(), c.recordsIn(), c.recordsOut(), c.watermark(), c.idle(), c.finished(), times.elapsedNanos(),
        times.idleNanos(), times.backpressuredNanos(), ops);
  }

  /**
   * The output samples of operator {@code operatorId}, one per subtask (empty if the attempt has no
   * such operator). A sink's sample holds records it wrote.
   */
  public List<OutputTap> taps(String operatorId) {
    List<OutputTap> out = new ArrayList<>();
    for (StreamTask t : tasks) {
      for (StreamTask.OperatorView v : t.operators()) {
        if (v.operatorId().equals(operatorId)) {
          out.add(v.tap());
        }
      }
    }
    return out;
  }
}
