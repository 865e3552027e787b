package io.tributary.scheduler.planner;

import io.tributary.plan.ChainLink;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.StagePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A stage being assembled: operators in the order they were placed (topological). */
final class StageBuilder {
  private final int id;
  private final int parallelism;
  private final List<OperatorPlan> operators = new ArrayList<>();
  private final List<ChainLink> links = new ArrayList<>();

  StageBuilder(int id, int parallelism) {
    this.id = id;
    this.parallelism = parallelism;
  }

  int id() {
    return id;
  }

  int parallelism() {
    return parallelism;
  }

  void add(OperatorPlan operator) {
    operators.add(operator);
  }

  void link(ChainLink link) {
    links.add(link);
  }

  StagePlan build() {
    String name = operators.stream().map(OperatorPlan::id).collect(Collectors.joining(" -> "));
    return new StagePlan(id, name, parallelism, operators, links);
  }
}
