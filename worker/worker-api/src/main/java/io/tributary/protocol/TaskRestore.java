package io.tributary.protocol;

import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.SplitState;
import java.util.List;
import java.util.Map;

/**
 * What one task restores from a checkpoint or savepoint: the state handles it needs, nothing more
 * (its keyed state is opened lazily, per key group, from the object store).
 *
 * @param checkpointId the checkpoint or savepoint restored from
 * @param kind {@code checkpoint} or {@code savepoint}
 * @param operators by operator id of the task's stage: the states every earlier subtask of that
 *     operator left (keyed-state snapshots, timer objects, watermarks); the task keeps the key
 *     groups it owns now, whatever the earlier parallelism (contract C7)
 * @param splits the positions of the splits the task reads, by split id (source tasks)
 */
public record TaskRestore(long checkpointId, String kind, Map<String, List<OperatorState>> operators,
    Map<String, SplitState> splits) {
  public TaskRestore {
    operators = Map.copyOf(operators);
    splits = Map.copyOf(splits);
  }

  /** The states of operator {@code operatorId}; empty if the checkpoint had none. */
  public List<OperatorState> operator(String operatorId) {
    return operators.getOrDefault(operatorId, List.of());
  }
}
