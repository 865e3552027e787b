package io.tributary.worker.job;

import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.task.OutputTap;
import io.tributary.worker.task.StreamTask;
import io.tributary.worker.task.TaskCounters;
import java.util.ArrayList;
import java.util.List;

/** A live view over a job's task counters, for progress reports. Any thread. */
public final class JobMetrics {
  private final List<StreamTask> tasks;

  JobMetrics(List<StreamTask> tasks) {
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

  /** The lowest input watermark over tasks that have not finished ({@code Long.MIN_VALUE}: none yet). */
  public long watermark() {
    long min = Long.MAX_VALUE;
    boolean any = false;
    for (StreamTask t : tasks) {
      TaskCounters c = t.counters();
      if (!c.finished() && !t.isSource()) {
        any = true;
        min = Math.min(min, c.watermark());
      }
    }
    return any ? min : Long.MAX_VALUE;
  }

  /** Records dropped as late (beyond allowed lateness, no late output). */
  public long lateDropped() {
    return tasks.stream().mapToLong(StreamTask::lateDropped).sum();
  }

  /** Malformed records counted (and sent to a dead-letter output if declared). */
  public long malformed() {
    return tasks.stream().mapToLong(StreamTask::malformed).sum();
  }

  /** Every task's and operator's cumulative counters now. Any thread; cheap (no task is disturbed). */
  public MetricsSnapshot snapshot() {
    long now = System.nanoTime();
    List<MetricsSnapshot.Task> out = new ArrayList<>(tasks.size());
    for (StreamTask t : tasks) {
      TaskCounters c = t.counters();
      List<StreamTask.OperatorView> views = t.operators();
      List<MetricsSnapshot.Operator> ops = new ArrayList<>(views.size());
      for (StreamTask.OperatorView v : views) {
        OperatorMetrics m = v.metrics();
        ops.add(new MetricsSnapshot.Operator(v.operatorId(), m.recordsIn(), m.recordsOut(), m.watermark(),
            m.lateDropped(), m.malformed()));
      }
      out.add(new MetricsSnapshot.Task(t.name(), t.stageId(), t.subtaskIndex(), t.isSource(), c.recordsIn(),
          c.recordsOut(), c.watermark(), c.idle(), c.finished(), t.times().read(now), ops));
    }
    return new MetricsSnapshot(now, out);
  }

  /**
   * The output samples of operator {@code operatorId}, one per subtask (empty if the job has no
   * such operator). A sink's sample holds records it wrote. Any thread.
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
