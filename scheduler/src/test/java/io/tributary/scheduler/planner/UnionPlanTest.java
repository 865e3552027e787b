package io.tributary.scheduler.planner;

import static io.tributary.scheduler.spec.SpecTexts.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.EdgePlan;
import io.tributary.plan.EdgePlan.Partitioning;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.SpecError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code union}: an operator that reads several inputs alike, as the spec states it and as it is planned. */
class UnionPlanTest {
  private static final String SOURCES = """
      name: job
      parallelism: 2
      sources:
        eu: {type: datagen, eventTime: {field: ts}}
        us: {type: datagen, eventTime: {field: ts}}
      """;

  private static ExecutionPlan plan(String operatorsAndSinks) {
    return Planner.plan(JobSpecs.parse(SOURCES + operatorsAndSinks));
  }

  @Test
  void aUnionHeadsAStageOfItsOwnFedForwardByEachInputInItsOrder() {
    ExecutionPlan plan = plan("""
        operators:
          - {id: both, union: [eu, us], filter: "value > 1", select: {key: key, value: value}}
        sinks: {k: {input: both, type: stdout}}
        """);

    assertThat(plan.stages()).extracting(StagePlan::name).containsExactly("eu", "us", "both -> k");
    assertThat(plan.stage(2).operator("both")).isEqualTo(new TransformPlan("both", "value > 1",
        Map.of("key", "key", "value", "value")));
    assertThat(plan.edges()).containsExactly(
        new EdgePlan(0, "eu", null, 2, "both", Partitioning.FORWARD, List.of(), 0),
        new EdgePlan(1, "us", null, 2, "both", Partitioning.FORWARD, List.of(), 1));
  }

  @Test
  void aKeyedUnionHashesEveryInputOnItsKeys() {
    ExecutionPlan plan = plan("""
        operators:
          - {id: odd, input: us, filter: "value % 2 = 1"}
          - id: counts
            union: [eu, odd]
            keyBy: [key]
            window: {type: tumbling, size: 1s}
            aggregate: {n: "count(*)"}
        sinks: {k: {input: counts, type: stdout}}
        """);

    assertThat(plan.stages()).extracting(StagePlan::name).containsExactly("eu", "us -> odd", "counts -> k");
    assertThat(plan.stage(2).operator("counts")).isInstanceOf(WindowAggregatePlan.class);
    assertThat(plan.edges()).containsExactly(
        new EdgePlan(0, "eu", null, 2, "counts", Partitioning.HASH, List.of("key"), 0),
        new EdgePlan(1, "odd", null, 2, "counts", Partitioning.HASH, List.of("key"), 1));
  }

  @Test
  void anInputAtAnotherParallelismIsRebalancedAndSideOutputsMayBeUnited() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(SOURCES + """
        operators:
          - id: w
            input: eu
            keyBy: [key]
            window: {type: tumbling, size: 1s, lateOutput: late}
            aggregate: {n: "count(*)"}
          - {id: all, union: [late, us]}
        sinks: {k: {input: all, type: stdout}}
        """), null, Map.of("us", 3));

    assertThat(plan.stages()).extracting(StagePlan::name, StagePlan::parallelism).containsExactly(
        org.assertj.core.groups.Tuple.tuple("eu", 2), org.assertj.core.groups.Tuple.tuple("w", 2),
        org.assertj.core.groups.Tuple.tuple("us", 3), org.assertj.core.groups.Tuple.tuple("all -> k", 2));
    assertThat(plan.edges()).contains(
        new EdgePlan(1, "w", "late", 3, "all", Partitioning.FORWARD, List.of(), 0),
        new EdgePlan(2, "us", null, 3, "all", Partitioning.REBALANCE, List.of(), 1));
    assertThat(PlanPrinter.describe(plan)).contains("<- rebalance from stage 2 us into all (input 1)");
  }

  @Test
  void theSpecNamesEachWrongInputOfAUnion() {
    assertThat(errors(SOURCES + """
        operators:
          - {id: a, union: [eu, nope]}
          - {id: b, input: eu, union: [eu, us]}
          - {id: c, union: [eu]}
          - {id: d, union: [eu, k]}
        sinks: {k: {input: a, type: stdout}}
        """)).containsExactly(
            new SpecError("/operators/1/input", "an operator reads one input or a union of several, not both: "
                + "move 'eu' into union"),
            new SpecError("/operators/2/union", "must name at least two inputs (one input is written input: eu)"),
            new SpecError("/operators/0/union/1", "unknown input 'nope'; known: eu, us, a, b, c, d"),
            new SpecError("/operators/3/union/1", "'k' is a sink; an input must be a source, an operator or a side "
                + "output"));
  }

  @Test
  void aCycleThroughAUnionIsReportedAtTheInputThatClosesIt() {
    assertThat(errors(SOURCES + """
        operators:
          - {id: a, union: [eu, c]}
          - {id: b, input: a, filter: "value > 1"}
          - {id: c, input: b, filter: "value > 2"}
        sinks: {k: {input: a, type: stdout}}
        """)).containsExactly(new SpecError("/operators/0/union/1", "cycle: a -> b -> c -> a"));
  }

  @Test
  void aWindowOverAUnionNeedsEventTimeOnEveryInput() {
    assertThat(errors(SOURCES + """
          plain: {type: datagen}
        operators:
          - id: w
            union: [eu, plain]
            keyBy: [key]
            window: {type: tumbling, size: 1s}
            aggregate: {n: "count(*)"}
        sinks: {k: {input: w, type: stdout}}
        """)).containsExactly(new SpecError("/operators/0/window",
            "a window needs event time, but source 'plain' declares no eventTime"));
  }
}
