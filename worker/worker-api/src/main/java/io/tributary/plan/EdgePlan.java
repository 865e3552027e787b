package io.tributary.plan;

import java.util.List;

/**
 * An exchange between stages: the output {@code port} of {@code fromOperator} in stage
 * {@code fromStage} feeds input {@code toInput} of {@code toOperator} (a head of stage
 * {@code toStage}).
 *
 * @param port null for the main output, else a side output's name
 * @param partitioning how records are routed to the receiving subtasks
 * @param keyFields for {@link Partitioning#HASH}: the key fields (may be empty: one key, one group)
 * @param toInput which input of {@code toOperator} this exchange feeds: 0 for an operator with one
 *     input; for a join 0 is its left and 1 its right input; for a union, the position of the
 *     input in its list
 */
public record EdgePlan(
    int fromStage, String fromOperator, String port, int toStage, String toOperator,
    Partitioning partitioning, List<String> keyFields, int toInput) {
  public EdgePlan {
    keyFields = List.copyOf(keyFields);
    if (toInput < 0) {
      throw new IllegalArgumentException("input index must not be negative, got " + toInput);
    }
  }

  /** An exchange into the only (first) input of {@code toOperator}. */
  public EdgePlan(int fromStage, String fromOperator, String port, int toStage, String toOperator,
      Partitioning partitioning, List<String> keyFields) {
    this(fromStage, fromOperator, port, toStage, toOperator, partitioning, keyFields, 0);
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
