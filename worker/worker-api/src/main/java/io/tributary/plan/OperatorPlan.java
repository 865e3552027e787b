package io.tributary.plan;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** One operator of the plan. The closed set of kinds the runtime knows how to run. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = SourcePlan.class, name = "source"),
    @JsonSubTypes.Type(value = TransformPlan.class, name = "transform"),
    @JsonSubTypes.Type(value = WindowAggregatePlan.class, name = "window-aggregate"),
    @JsonSubTypes.Type(value = JoinPlan.class, name = "join"),
    @JsonSubTypes.Type(value = GroupAggregatePlan.class, name = "group-aggregate"),
    @JsonSubTypes.Type(value = TopNPlan.class, name = "top-n"),
    @JsonSubTypes.Type(value = SinkPlan.class, name = "sink")})
public sealed interface OperatorPlan
    permits SourcePlan, TransformPlan, WindowAggregatePlan, JoinPlan, GroupAggregatePlan, TopNPlan,
    SinkPlan {
  /** Unique within the job; the spec's id of the source, operator or sink. */
  String id();
}
