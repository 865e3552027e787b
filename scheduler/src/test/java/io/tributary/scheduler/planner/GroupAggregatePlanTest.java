package io.tributary.scheduler.planner;

import static io.tributary.scheduler.spec.SpecTexts.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EdgePlan.Partitioning;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.StagePlan;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.SpecError;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An aggregate without a window: an unbounded group aggregate whose upsert stream goes only where
 * it can be taken (kafka upsert, a file changelog, stdout, blackhole), refused elsewhere by pointer.
 */
class GroupAggregatePlanTest {
  private static final String SOURCES = """
      name: job
      parallelism: 3
      sources:
        bids: {type: nexmark, kind: bid}
      """;
  private static final String KAFKA = "type: kafka, bootstrapServers: localhost:9092, topic: t";

  @Test
  void anAggregateWithoutAWindowIsAGroupAggregateHashedOnItsKeysAndItsSinksKnowTheUpsertKey() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(SOURCES + """
        operators:
          - {id: per-auction, input: bids, keyBy: [auction], aggregate: {bids: "count(*)", top: "max(price)"}}
          - {id: everything, input: bids, aggregate: {n: "count(*)"}}
        sinks:
          kafka: {input: per-auction, %s, delivery: upsert}
          file: {input: per-auction, type: file, path: /tmp/x, changelog: true}
          plain: {input: bids, type: file, path: /tmp/y, changelog: true}
          total: {input: everything, type: stdout}
        """.formatted(KAFKA)));

    assertThat(plan.stages()).extracting(StagePlan::name, StagePlan::parallelism).containsExactly(
        org.assertj.core.groups.Tuple.tuple("bids -> plain", 3),
        org.assertj.core.groups.Tuple.tuple("per-auction -> kafka -> file", 3),
        org.assertj.core.groups.Tuple.tuple("everything -> total", 1));
    assertThat(plan.stage(1).operator("per-auction")).isEqualTo(new GroupAggregatePlan("per-auction",
        List.of("auction"), List.of(new AggregatePlan("bids", Function.COUNT, null),
            new AggregatePlan("top", Function.MAX, "price"))));
    assertThat(plan.edges()).contains(
        new EdgePlan(0, "bids", null, 1, "per-auction", Partitioning.HASH, List.of("auction")),
        new EdgePlan(0, "bids", null, 2, "everything", Partitioning.HASH, List.of()));
    assertThat(((SinkPlan) plan.stage(1).operator("kafka")).upsertKey()).containsExactly("auction");
    assertThat(((SinkPlan) plan.stage(1).operator("file")).upsertKey()).containsExactly("auction");
    assertThat(((SinkPlan) plan.stage(0).operator("plain")).upsertKey()).as("an append-only input").isNull();
    assertThat(((SinkPlan) plan.stage(2).operator("total")).upsertKey()).isEmpty();
    assertThat(PlanPrinter.describe(plan)).contains("group aggregate per-auction keyBy [auction] (an upsert stream)",
        "sink kafka (kafka, json, upserts keyed by [auction])");
  }

  @Test
  void anUpsertStreamIntoAnOperatorOrASinkThatCannotTakeItIsRefusedAtTheField() {
    String what = "'per-auction' is an upsert stream (an aggregate or a topN without a window, whose results update "
        + "as records arrive; each record carries _op: insert or update)";
    String only = "; of the operators only an aggregate without a window reads one: send it there, or to a "
        + "kafka sink with delivery: upsert, a file sink with changelog: true, stdout or blackhole";
    assertThat(errors(SOURCES + """
        operators:
          - {id: per-auction, input: bids, keyBy: [auction], aggregate: {n: "count(*)", _op: "max(price)"}}
          - {id: big, input: per-auction, filter: "n > 10"}
          - {id: both, union: [bids, per-auction]}
        sinks:
          a: {input: per-auction, %1$s}
          b: {input: per-auction, %1$s, delivery: upsert, keyFields: [auction, n]}
          c: {input: per-auction, type: file, path: /tmp/x}
          d: {input: per-auction, %1$s, delivery: upsert, keyFields: [auction]}
        """.formatted(KAFKA))).containsExactly(
            new SpecError("/operators/0/aggregate/_op", "'_op' says whether a result is an insert or an update; "
                + "choose another name"),
            new SpecError("/operators/1/input", what + only),
            new SpecError("/operators/2/union/1", what + only),
            new SpecError("/sinks/a/delivery", what + ": a kafka sink takes it with delivery: upsert, keyed by "
                + "[auction], so a compacted topic keeps each group's latest result"),
            new SpecError("/sinks/b/keyFields", "must be the fields of the groups of " + what + ", [auction] (or left "
                + "out: they are the default), so that each group's updates replace each other"),
            new SpecError("/sinks/c/changelog", what + ": a file sink writes it with changelog: true, each line a "
                + "change"));
  }

  @Test
  void anAggregateOverAnUpsertStreamGroupsByFieldsOfItsKeyWithAggregatesThatRetract() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(SOURCES + """
        operators:
          - {id: per-bidder, input: bids, keyBy: [auction, bidder], aggregate: {top: "max(price)"}}
          - {id: per-auction, input: per-bidder, keyBy: [auction], aggregate: {avg: "avg(top)", n: "count(*)"}}
        sinks:
          out: {input: per-auction, type: file, path: /tmp/x, changelog: true}
        """));

    assertThat(plan.stage(2).operator("per-auction")).isEqualTo(new GroupAggregatePlan("per-auction",
        List.of("auction"), List.of(new AggregatePlan("avg", Function.AVG, "top"),
            new AggregatePlan("n", Function.COUNT, null)), List.of("auction", "bidder")));
    assertThat(plan.edges()).contains(
        new EdgePlan(1, "per-bidder", null, 2, "per-auction", Partitioning.HASH, List.of("auction")));
    assertThat(((SinkPlan) plan.stage(2).operator("out")).upsertKey()).containsExactly("auction");
    assertThat(PlanPrinter.describe(plan)).contains("group aggregate per-auction keyBy [auction] (an upsert stream, "
        + "over upserts keyed by [auction, bidder]): avg = avg(top), n = count(*)");

    String what = "'per-bidder' is an upsert stream (an aggregate or a topN without a window, whose results update "
        + "as records arrive; each record carries _op: insert or update)";
    assertThat(errors(SOURCES + """
        operators:
          - {id: per-bidder, input: bids, keyBy: [auction, bidder], aggregate: {top: "max(price)"}}
          - {id: per-channel, input: per-bidder, keyBy: [channel], aggregate: {n: "count(*)", m: "max(top)"}}
          - {id: big, input: per-bidder, select: {a: auction}}
        sinks:
          a: {input: per-channel, type: stdout}
          b: {input: big, type: stdout}
        """)).containsExactly(
            new SpecError("/operators/1/keyBy", "must name fields of the key of 'per-bidder', [auction, bidder], "
                + "since it" + what.substring("'per-bidder'".length()) + ": each of its keys' results replaces the "
                + "last one, which is taken out of the group that counted it, so a key's results must stay in one "
                + "group"),
            new SpecError("/operators/1/aggregate/m", "`max(top)`: " + what + ", whose replaced results are taken "
                + "out of the aggregates: count, sum and avg can, min, max and count(DISTINCT) cannot (they would "
                + "need every value kept)"),
            new SpecError("/operators/2/input", what + "; of the operators only an aggregate without a window reads "
                + "one: send it there, or to a kafka sink with delivery: upsert, a file sink with changelog: true, "
                + "stdout or blackhole"));
  }

  @Test
  void changelogIsABooleanOfFileSinks() {
    assertThat(errors(SOURCES + """
        sinks:
          a: {input: bids, type: file, path: /tmp/x, changelog: yes please}
          b: {input: bids, type: stdout, changelog: true}
        """)).extracting(SpecError::pointer).containsExactly("/sinks/a/changelog", "/sinks/b/changelog");
  }
}
