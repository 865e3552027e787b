package io.tributary.scheduler.observe;

import io.tributary.protocol.TaskMetrics;
import java.util.List;

/**
 * The latest counters of every task of one attempt, as the control plane had them at one moment:
 * what a sampler keeps to compute rates from two snapshots. Each task's counters carry the time its
 * worker read them, so rates between two snapshots are per task, over that task's own interval.
 */
public record MetricsSnapshot(List<TaskMetrics> tasks) {
  public MetricsSnapshot {
    tasks = List.copyOf(tasks);
  }

  /** Records read by source tasks. */
  public long recordsIn() {
    long n = 0;
    for (TaskMetrics t : tasks) {
      if (t.source()) {
        n += t.recordsIn();
      }
    }
    return n;
  }

  /** Records written by sinks. */
  public long recordsOut() {
    long n = 0;
    for (TaskMetrics t : tasks) {
      n += t.recordsOut();
    }
    return n;
  }

  /** The lowest input watermark over tasks that have not finished and read from channels. */
  public long watermark() {
    long min = Long.MAX_VALUE;
    for (TaskMetrics t : tasks) {
      if (!t.finished() && !t.source()) {
        min = Math.min(min, t.watermark());
      }
    }
    return min;
  }

  /** Records dropped as late (beyond allowed lateness, no late output). */
  public long lateDropped() {
    return tasks.stream().flatMap(t -> t.operators().stream()).mapToLong(TaskMetrics.OperatorCounters::lateDropped)
        .sum();
  }

  /** Malformed records counted (and sent to a dead-letter output if declared). */
  public long malformed() {
    return tasks.stream().flatMap(t -> t.operators().stream()).mapToLong(TaskMetrics.OperatorCounters::malformed)
        .sum();
  }
}
