package io.tributary.plan;

import java.util.List;

/**
 * Operators that run chained in one task per subtask (records pass by method call).
 *
 * @param id the stage's index in the plan
 * @param name a readable name (the operator ids joined by " -> ")
 * @param parallelism the number of subtasks
 * @param operators the chained operators in topological order
 * @param links forward connections between operators of this stage
 */
public record StagePlan(int id, String name, int parallelism, List<OperatorPlan> operators, List<ChainLink> links) {
  public StagePlan {
    operators = List.copyOf(operators);
    links = List.copyOf(links);
  }

  public OperatorPlan operator(String operatorId) {
    for (OperatorPlan op : operators) {
      if (op.id().equals(operatorId)) {
        return op;
      }
    }
    throw new IllegalArgumentException("no operator " + operatorId + " in stage " + id);
  }
}
