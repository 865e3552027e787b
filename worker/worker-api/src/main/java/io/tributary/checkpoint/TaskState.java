package io.tributary.checkpoint;

import java.util.List;
import java.util.Map;

/**
 * One subtask's part of a checkpoint: its source splits (source stages) and its operators.
 *
 * @param stage the stage's id in the plan
 * @param subtask the subtask's index
 * @param parallelism the stage's parallelism when the state was taken
 * @param lastCheckpoint the last checkpoint whose barrier the task processed ({@code -1}: none); for a
 *     task's final state it tells the coordinator which later checkpoints the final state stands for
 * @param finished whether this is the state the task ended with (input ended, results flushed)
 * @param alignmentNanos how long the barrier waited for the slowest input channel (0 for sources)
 * @param syncNanos time the snapshot took on the task thread (the rest ran in the background)
 * @param splits the splits this subtask read, in order
 * @param operators by operator id
 */
public record TaskState(int stage, int subtask, int parallelism, long lastCheckpoint, boolean finished,
    long alignmentNanos, long syncNanos, List<SplitState> splits, Map<String, OperatorState> operators) {
  public TaskState {
    splits = List.copyOf(splits);
    operators = Map.copyOf(operators);
  }

  /** {@code stage/subtask}, unique within a job run. */
  public String taskId() {
    return stage + "/" + subtask;
  }
}
