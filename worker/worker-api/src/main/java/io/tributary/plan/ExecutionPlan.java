package io.tributary.plan;

import java.util.List;

/**
 * What the runtime executes: stages of chained operators connected by exchanges. Produced by the
 * scheduler's planner from a validated job spec; immutable.
 *
 * @param jobName the job's name
 * @param maxParallelism the number of key groups (contract C1)
 * @param stateBackend the keyed state backend's name ({@code heap} or {@code forst})
 * @param stages stages in topological order (every edge goes from a lower to a higher index)
 * @param edges exchanges between stages
 */
public record ExecutionPlan(
    String jobName, int maxParallelism, String stateBackend, List<StagePlan> stages, List<EdgePlan> edges) {
  public ExecutionPlan {
    stages = List.copyOf(stages);
    edges = List.copyOf(edges);
  }

  public StagePlan stage(int id) {
    for (StagePlan s : stages) {
      if (s.id() == id) {
        return s;
      }
    }
    throw new IllegalArgumentException("no stage " + id);
  }

  /** The stage that runs operator (or source, or sink) {@code operatorId}; empty when none does. */
  public java.util.Optional<StagePlan> stageOf(String operatorId) {
    return stages.stream().filter(s -> s.operators().stream().anyMatch(o -> o.id().equals(operatorId))).findFirst();
  }

  /** Edges that leave stage {@code id}. */
  public List<EdgePlan> outputsOf(int id) {
    return edges.stream().filter(e -> e.fromStage() == id).toList();
  }

  /** Edges that enter stage {@code id}. */
  public List<EdgePlan> inputsOf(int id) {
    return edges.stream().filter(e -> e.toStage() == id).toList();
  }
}
