package io.tributary.protocol;

import io.tributary.state.KeyGroupRange;
import java.util.List;
import java.util.Objects;

/**
 * One subtask of one stage of an attempt, as the control plane placed it.
 *
 * @param stageId the stage's id in the plan
 * @param subtask the subtask's index, 0-based
 * @param worker the id of the worker that runs it ({@link WorkerSlots#worker()})
 * @param keyGroups the key groups the subtask owns (contract C1)
 * @param splits for a source stage: the ids of the splits it reads, in order (may be empty: the
 *     task then ends at once); empty for other stages
 * @param restore what it restores, or null for an empty start
 */
public record TaskDeployment(int stageId, int subtask, String worker, KeyGroupRange keyGroups, List<String> splits,
    TaskRestore restore) {
  public TaskDeployment {
    Objects.requireNonNull(worker, "worker");
    Objects.requireNonNull(keyGroups, "keyGroups");
    splits = List.copyOf(splits);
  }

  /** {@code stage/subtask}, unique within an attempt (the id checkpoint task states carry). */
  public String taskId() {
    return taskId(stageId, subtask);
  }

  public static String taskId(int stageId, int subtask) {
    return stageId + "/" + subtask;
  }
}
