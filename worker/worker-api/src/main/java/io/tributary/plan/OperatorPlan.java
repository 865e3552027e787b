package io.tributary.plan;

/** One operator of the plan. The closed set of kinds the runtime knows how to run. */
public sealed interface OperatorPlan
    permits SourcePlan, TransformPlan, WindowAggregatePlan, SinkPlan {
  /** Unique within the job; the spec's id of the source, operator or sink. */
  String id();
}
