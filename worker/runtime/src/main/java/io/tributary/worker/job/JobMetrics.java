package io.tributary.worker.job;

import io.tributary.worker.task.StreamTask;
import io.tributary.worker.task.TaskCounters;
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
}
