package io.tributary.plan;

import java.util.List;

/**
 * An exchange between stages: the output {@code port} of {@code fromOperator} in stage
 * {@code fromStage} feeds {@code toOperator} (a head of stage {@code toStage}).
 *
 * @param port null for the main output, else a side output's name
 * @param partitioning how records are routed to the receiving subtasks
 * @param keyFields for {@link Partitioning#HASH}: the key fields (may be empty: one key, one group)
 */
public record EdgePlan(
    int fromStage, String fromOperator, String port, int toStage, String toOperator,
    Partitioning partitioning, List<String> keyFields) {
  public EdgePlan {
    keyFields = List.copyOf(keyFields);
  }

  public enum Partitioning {
    /** By key group of the key fields (contract C1). */
    HASH,
    /** Round robin over receivers. */
    REBALANCE,
    /** Subtask i to subtask i (same parallelism). */
    FORWARD
  }
}
