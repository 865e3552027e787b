package io.tributary.protocol;

import java.util.List;

/**
 * One task's cumulative counters at one moment, as its worker published them (in batches: they may
 * lag a little behind the records). Counters start at 0 with every attempt. Times are measured only
 * around the task's blocking points: waiting for input is idle, waiting for downstream credit is
 * backpressured, the rest of the elapsed time is busy.
 *
 * @param atNanos the worker's {@code System.nanoTime()} when the counters were read: only the
 *     difference between two reports of the same worker means something
 * @param taskId {@code stage/subtask}
 * @param name a readable name, {@code stage name (i/p)}
 * @param source whether it reads source splits
 * @param recordsIn records that entered the task (read from splits, or received from channels)
 * @param recordsOut records its sinks wrote
 * @param watermark its input watermark ({@code Long.MIN_VALUE}: none yet)
 * @param idle whether all its inputs are idle (contract C3), so its watermark holds nobody back
 * @param finished whether it has ended
 * @param elapsedNanos since the task started (up to when it stopped)
 * @param operators its operators in chain order
 */
public record TaskMetrics(long atNanos, String taskId, String name, int stageId, int subtask, boolean source,
    long recordsIn, long recordsOut, long watermark, boolean idle, boolean finished, long elapsedNanos,
    long idleNanos, long backpressuredNanos, List<OperatorCounters> operators) {
  public TaskMetrics {
    operators = List.copyOf(operators);
  }

  /** Elapsed time not spent waiting. */
  public long busyNanos() {
    return Math.max(0, elapsedNanos - idleNanos - backpressuredNanos);
  }

  /**
   * One operator subtask's counters.
   *
   * @param recordsIn records it was given
   * @param recordsOut records it emitted to its main output (a sink: records it wrote)
   * @param watermark the last watermark it applied ({@code Long.MIN_VALUE}: none yet)
   * @param lateDropped records dropped as late (beyond allowed lateness, no late output)
   * @param malformed malformed records counted (and sent to a dead-letter output if declared)
   */
  public record OperatorCounters(String operatorId, long recordsIn, long recordsOut, long watermark,
      long lateDropped, long malformed) {}
}
