package io.tributary.scheduler.planner;

import static io.tributary.scheduler.spec.SpecTexts.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EdgePlan.Partitioning;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.TopNPlan;
import io.tributary.plan.TopNPlan.SortKey;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.SpecError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cumulate windows, count(DISTINCT x) and the per-window top-N, as the spec states them and as they are planned. */
class TopNAndCumulatePlanTest {
  private static final String SOURCES = """
      name: job
      parallelism: 2
      sources:
        bids: {type: nexmark, kind: bid, eventTime: {field: dateTime}}
      """;
  private static final String PER_AUCTION = """
        - id: per-auction
          input: bids
          keyBy: [auction]
          window: {type: cumulate, size: 1m, step: 10s}
          aggregate: {bids: "count(*)", bidders: "count(DISTINCT bidder)"}
      """;

  @Test
  void aTopNIsHashedOnItsPartitionAfterACumulateWindowWithADistinctCount() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(SOURCES + "operators:\n" + PER_AUCTION + """
          - id: hot
            input: per-auction
            topN:
              partitionBy: [window_start, window_end]
              orderBy: [{field: bids, desc: true}, {field: auction, nulls: first}]
              limit: 3
              rankField: rank
        sinks: {k: {input: hot, type: stdout}}
        """));

    assertThat(plan.stage(1).operator("per-auction")).isEqualTo(new WindowAggregatePlan("per-auction",
        List.of("auction"), WindowPlan.cumulate(60_000, 10_000), 0, null, List.of(
            new AggregatePlan("bids", Function.COUNT, null), new AggregatePlan("bidders", Function.COUNT_DISTINCT,
                "bidder"))));
    assertThat(plan.stage(2).operator("hot")).isEqualTo(new TopNPlan("hot", List.of("window_start", "window_end"),
        List.of(new SortKey("bids", true, false), new SortKey("auction", false, true)), 3, "rank"));
    assertThat(plan.edges()).contains(new EdgePlan(1, "per-auction", null, 2, "hot", Partitioning.HASH,
        List.of("window_start", "window_end")));
    assertThat(PlanPrinter.describe(plan)).contains("cumulate 60000ms every 10000ms",
        "bidders = count(DISTINCT bidder)", "top 3 hot per [window_start, window_end] by bids desc, auction nulls "
            + "first, rank -> rank");
  }

  @Test
  void wrongShapesAreNamedByTheirPointer() {
    assertThat(errors(SOURCES + "operators:\n" + PER_AUCTION + """
          - {id: a, input: per-auction, topN: {partitionBy: [auction], orderBy: [{field: bids}], limit: 0}}
          - {id: b, input: per-auction, filter: "bids > 1", topN: {partitionBy: [window_end], orderBy: [], limit: 1}}
          - {id: c, input: per-auction, topN: {partitionBy: [window_end], orderBy: [{desc: 1}], limit: 20000}}
          - {id: d, input: bids, keyBy: [auction], window: {type: cumulate, size: 1m, step: 7s}, aggregate: {n: "sum(DISTINCT price)"}}
          - {id: e, input: bids, keyBy: [auction], window: {type: tumbling, size: 1m, step: 10s}, aggregate: {n: "count(*)"}}
        sinks: {k: {input: a, type: stdout}}
        """)).containsExactly(
            new SpecError("/operators/1/topN/limit", "must be between 1 and 10000, got 0"),
            new SpecError("/operators/2/topN/orderBy", "must be a non-empty list such as [{field: bids, desc: true}]"),
            new SpecError("/operators/3/topN/orderBy/0/field", "is required"),
            new SpecError("/operators/3/topN/orderBy/0/desc", "must be true or false"),
            new SpecError("/operators/3/topN/limit", "must be between 1 and 10000, got 20000"),
            new SpecError("/operators/4/window/step", "must divide size (60000 ms) into equal steps, got 7000 ms"),
            new SpecError("/operators/5/window/step", "does not apply to a tumbling window; it is for cumulate "
                + "windows"),
            new SpecError("/operators/2/filter", "filter cannot be combined with a topN in one operator; give it an "
                + "operator of its own"),
            new SpecError("/operators/4/aggregate/n", "`sum(DISTINCT price)`: DISTINCT is supported only in "
                + "count(DISTINCT x)"));
  }

  @Test
  void aWindowWithoutAnAggregateAssignsWindowsToRowsChainedAndATopNRanksThem() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(SOURCES + """
        operators:
          - {id: hop, input: bids, window: {type: sliding, size: 10s, slide: 5s}}
          - id: first
            input: hop
            topN: {partitionBy: [window_start, window_end, auction], orderBy: [{field: dateTime}], limit: 1}
        sinks: {k: {input: first, type: stdout}}
        """));

    assertThat(plan.stages()).extracting(s -> s.name()).containsExactly("bids -> hop", "first -> k");
    assertThat(plan.stage(0).operator("hop")).isEqualTo(new io.tributary.plan.TransformPlan("hop", null, null,
        WindowPlan.sliding(10_000, 5_000)));
    assertThat(PlanPrinter.describe(plan)).contains("windows hop sliding 10000ms every 5000ms (each row once per "
        + "window, with window_start, window_end)");
    assertThat(errors(SOURCES + """
        operators:
          - {id: s, input: bids, window: {type: session, gap: 1s}}
          - {id: k, input: bids, keyBy: [auction], window: {type: tumbling, size: 1s, lateOutput: late}}
        sinks: {k2: {input: s, type: stdout}}
        """)).containsExactly(
            new SpecError("/operators/0/window/type", "a session window needs an aggregate: sessions are known only "
                + "when they close (a window without an aggregate assigns tumbling, sliding or cumulate windows to "
                + "rows)"),
            new SpecError("/operators/1/window/lateOutput", "applies to a window with an aggregate; a window "
                + "without one only assigns windows to rows"),
            new SpecError("/operators/1/keyBy", "a window without an aggregate only assigns windows to rows: key "
                + "them in an operator after this one"));
  }

  @Test
  void aTopNWithoutWindowEndIsUnboundedAnUpsertStreamKeyedByItsPartitionAndRankWithoutEventTime() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse("""
        name: job
        parallelism: 2
        sources:
          bids: {type: datagen}
        operators:
          - id: top
            input: bids
            topN: {partitionBy: [auction], orderBy: [{field: price, desc: true}], limit: 10, rankField: rank}
        sinks: {k: {input: top, type: file, path: /tmp/out, changelog: true}}
        """));

    assertThat(plan.stage(1).operator("top")).isEqualTo(new TopNPlan("top", List.of("auction"),
        List.of(new SortKey("price", true, false)), 10, "rank"));
    assertThat(plan.edges()).contains(new EdgePlan(0, "bids", null, 1, "top", Partitioning.HASH, List.of("auction")));
    assertThat(PlanPrinter.describe(plan)).contains("top 10 top per [auction] by price desc, rank -> rank (unbounded: "
        + "an upsert stream)", "upserts keyed by [auction, rank]");
    ExecutionPlan global = Planner.plan(JobSpecs.parse("""
        name: job
        parallelism: 2
        sources:
          bids: {type: datagen}
        operators:
          - {id: top, input: bids, topN: {partitionBy: [], orderBy: [{field: value}], limit: 1}}
        sinks: {k: {input: top, type: stdout}}
        """));
    assertThat(global.stage(1).parallelism()).as("one global partition").isEqualTo(1);

    assertThat(errors("""
        name: job
        sources:
          bids: {type: datagen}
        operators:
          - {id: a, input: bids, topN: {partitionBy: [auction], orderBy: [{field: price}], limit: 2}}
          - {id: b, input: bids, topN: {partitionBy: [auction], orderBy: [{field: price}], limit: 1, rankField: auction}}
          - {id: c, input: b, filter: "price > 1"}
          - {id: d, input: bids, topN: {partitionBy: [auction], orderBy: [{field: price}], limit: 1, rankField: _op}}
        sinks:
          k: {input: a, type: stdout}
          f: {input: b, type: file, path: /tmp/out}
          g: {input: c, type: stdout}
        """)).containsExactly(
            new SpecError("/operators/0/topN/rankField", "is required for an unbounded top-N (partitionBy without "
                + "window_end) of more than one row: its output is an upsert stream keyed by the partition and the "
                + "rank"),
            new SpecError("/operators/1/topN/rankField", "must not be a partitionBy field: 'auction'"),
            new SpecError("/operators/3/topN/rankField", "'_op' says whether a result is an insert or an update; "
                + "choose another name"),
            new SpecError("/operators/2/input", "'b' is an upsert stream (an aggregate or a topN without a window, "
                + "whose results update as records arrive; each record carries _op: insert or update); of the "
                + "operators only an aggregate without a window reads one: send it there, or to a kafka sink with "
                + "delivery: upsert, a file sink with changelog: true, stdout or blackhole"),
            new SpecError("/sinks/f/changelog", "'b' is an upsert stream (an aggregate or a topN without a window, "
                + "whose results update as records arrive; each record carries _op: insert or update): a file sink "
                + "writes it with changelog: true, each line a change"));
  }

  @Test
  void aTopNNeedsEventTime() {
    assertThat(errors("""
        name: job
        sources:
          results: {type: datagen}
        operators:
          - {id: top, input: results, topN: {partitionBy: [window_end], orderBy: [{field: value}], limit: 1}}
        sinks: {k: {input: top, type: stdout}}
        """)).containsExactly(new SpecError("/operators/0/topN", "a topN needs event time, but source 'results' "
            + "declares no eventTime"));
  }
}
