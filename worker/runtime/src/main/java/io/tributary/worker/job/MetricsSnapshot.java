package io.tributary.worker.job;

import io.tributary.worker.task.TaskTimes;
import java.util.List;

/**
 * A job's cumulative counters at one moment, per task and per operator subtask: what a sampler keeps
 * to compute rates from two snapshots (of the same {@link LocalJob}: counters start at 0 with each).
 * Counters are published by task threads in batches, so they may lag a little behind the records.
 *
 * @param atNanos {@code System.nanoTime()} when it was taken
 */
public record MetricsSnapshot(long atNanos, List<Task> tasks) {
  public MetricsSnapshot {
    tasks = List.copyOf(tasks);
  }

  /**
   * One task: a subtask of a stage.
   *
   * @param recordsIn records that entered the task (read from splits, or received from channels)
   * @param recordsOut records its sinks wrote
   * @param watermark its input watermark ({@code Long.MIN_VALUE}: none yet)
   * @param idle whether all its inputs are idle (C3), so its watermark holds nobody back
   * @param operators its operators in chain order
   */
  public record Task(String name, int stageId, int subtask, boolean source, long recordsIn, long recordsOut,
      long watermark, boolean idle, boolean finished, TaskTimes.Sample times, List<Operator> operators) {
    public Task {
      operators = List.copyOf(operators);
    }
  }

  /**
   * One operator subtask.
   *
   * @param recordsIn records it was given
   * @param recordsOut records it emitted to its main output (a sink: records it wrote)
   * @param watermark the last watermark it applied ({@code Long.MIN_VALUE}: none yet)
   */
  public record Operator(String operatorId, long recordsIn, long recordsOut, long watermark, long lateDropped,
      long malformed) {}

  /** Records read by source tasks. */
  public long recordsIn() {
    long n = 0;
    for (Task t : tasks) {
      if (t.source()) {
        n += t.recordsIn();
      }
    }
    return n;
  }

  /** Records written by sinks. */
  public long recordsOut() {
    long n = 0;
    for (Task t : tasks) {
      n += t.recordsOut();
    }
    return n;
  }

  /** Records dropped as late (beyond allowed lateness, no late output). */
  public long lateDropped() {
    return tasks.stream().flatMap(t -> t.operators().stream()).mapToLong(Operator::lateDropped).sum();
  }

  /** Malformed records counted (and sent to a dead-letter output if declared). */
  public long malformed() {
    return tasks.stream().flatMap(t -> t.operators().stream()).mapToLong(Operator::malformed).sum();
  }
}
