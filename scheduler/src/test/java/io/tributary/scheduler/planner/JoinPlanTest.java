package io.tributary.scheduler.planner;

import static io.tributary.scheduler.spec.SpecTexts.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.EdgePlan;
import io.tributary.plan.EdgePlan.Partitioning;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.JoinPlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.SpecError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code join}: the window, interval and regular join as the spec states them and as they are planned. */
class JoinPlanTest {
  private static final String SOURCES = """
      name: job
      parallelism: 2
      sources:
        bids: {type: nexmark, kind: bid, eventTime: {field: dateTime}}
        auctions: {type: nexmark, kind: auction, eventTime: {field: dateTime}}
      """;

  private static ExecutionPlan plan(String operatorsAndSinks) {
    return Planner.plan(JobSpecs.parse(SOURCES + operatorsAndSinks));
  }

  @Test
  void aJoinHashesEachSideOnItsKeysIntoItsLeftAndRightInput() {
    ExecutionPlan plan = plan("""
        operators:
          - id: cheap
            input: bids
            filter: "price < 100"
          - id: j
            join:
              left: cheap
              right: auctions
              on: [{left: auction, right: id}, {left: bidder, right: seller}]
              window: {type: tumbling, size: 10s}
            filter: "r.reserve > l.price"
            select: {auction: "l.auction", price: price}
        sinks: {k: {input: j, type: stdout}}
        """);

    assertThat(plan.stages()).extracting(StagePlan::name).containsExactly("bids -> cheap", "auctions", "j -> k");
    assertThat(plan.stage(2).operator("j")).isEqualTo(JoinPlan.window("j", List.of("auction", "bidder"),
        List.of("id", "seller"), WindowPlan.tumbling(10_000), "r.reserve > l.price",
        Map.of("auction", "l.auction", "price", "price")));
    assertThat(plan.edges()).containsExactly(
        new EdgePlan(0, "cheap", null, 2, "j", Partitioning.HASH, List.of("auction", "bidder"), 0),
        new EdgePlan(1, "auctions", null, 2, "j", Partitioning.HASH, List.of("id", "seller"), 1));
    assertThat(PlanPrinter.describe(plan)).contains("window join tumbling 10000ms j on l.auction = r.id and "
        + "l.bidder = r.seller");
  }

  @Test
  void betweenMakesAnIntervalJoinWithSignedBoundsAndNeitherARegularJoin() {
    ExecutionPlan plan = plan("""
        operators:
          - {id: i, join: {left: bids, right: auctions, on: [{left: auction, right: id}], between: {lower: -5s, upper: 500}}}
          - {id: r, join: {left: bids, right: auctions, on: [{left: auction, right: id}], stateTtl: 1h}}
          - {id: forever, join: {left: bids, right: bids, on: [{left: auction, right: auction}]}}
        sinks:
          a: {input: i, type: stdout}
          b: {input: r, type: stdout}
          c: {input: forever, type: stdout}
        """);

    assertThat(plan.stages().stream().flatMap(s -> s.operators().stream()).filter(o -> o instanceof JoinPlan))
        .containsExactlyInAnyOrder(
            JoinPlan.interval("i", List.of("auction"), List.of("id"), -5_000, 500, null, null),
            JoinPlan.regular("r", List.of("auction"), List.of("id"), 3_600_000, null, null),
            JoinPlan.regular("forever", List.of("auction"), List.of("auction"), 0, null, null));
    assertThat(plan.edges()).filteredOn(e -> e.toOperator().equals("forever")).extracting(EdgePlan::toInput)
        .as("a self-join reads the same input twice").containsExactly(0, 1);
  }

  @Test
  void wrongShapesAreNamedByTheirPointer() {
    assertThat(errors(SOURCES + """
        operators:
          - {id: a, input: bids, join: {left: bids, right: auctions, on: [{left: auction, right: id}]}}
          - {id: b, join: {left: bids, right: auctions}}
          - {id: c, join: {left: bids, right: auctions, on: [{left: auction}], stateTtl: 0s}}
          - id: d
            join:
              left: bids
              right: auctions
              on: [{left: auction, right: id}]
              window: {type: tumbling, size: 1s, allowedLateness: 1s}
              between: {lower: 5s, upper: -5s}
          - {id: e, join: {left: bids, right: nope, on: [{left: auction, right: id}]}, keyBy: [auction]}
          - {id: f, join: {left: bids, right: auctions, on: [{left: a, right: b}], between: {lower: 1x, upper: 1s}, stateTtl: 1m}}
        sinks: {k: {input: a, type: stdout}}
        """)).containsExactly(
            new SpecError("/operators/0/input", "a join reads its own inputs, join.left and join.right: remove input"),
            new SpecError("/operators/1/join/on", "is required: the key pairs to join on, such as "
                + "[{left: auction, right: id}]"),
            new SpecError("/operators/2/join/on/0/right", "is required"),
            new SpecError("/operators/2/join/stateTtl", "must be a positive duration such as 10s"),
            new SpecError("/operators/3/join/between/upper", "must not be below lower (5000 ms), got -5000 ms"),
            new SpecError("/operators/3/join/window", "a window join takes no allowedLateness or lateOutput: its "
                + "late records are dropped and counted"),
            new SpecError("/operators/3/join/between", "a join has a window (a window join) or between (an "
                + "interval join), not both"),
            new SpecError("/operators/5/join/between/lower", "must be a duration such as 10s or -10s, not '1x'"),
            new SpecError("/operators/5/join/stateTtl", "only a regular join (no window, no between) keeps state "
                + "that needs a time-to-live; a window or interval join drops its state when the watermark passes"),
            new SpecError("/operators/4/join/right", "unknown input 'nope'; known: bids, auctions, a, b, c, d, e, f"),
            new SpecError("/operators/4/keyBy", "keyBy cannot be combined with a join in one operator; put it in an "
                + "operator after this one"));
  }

  @Test
  void joinsThatCompareTimesNeedEventTimeOnBothSides() {
    String spec = """
        name: job
        sources:
          bids: {type: nexmark, kind: bid, eventTime: {field: dateTime}}
          people: {type: nexmark, kind: person}
        operators:
          - {id: w, join: {left: bids, right: people, on: [{left: bidder, right: id}], window: {type: tumbling, size: 1s}}}
          - {id: i, join: {left: people, right: bids, on: [{left: id, right: bidder}], between: {lower: 0s, upper: 1s}}}
          - {id: t, join: {left: bids, right: people, on: [{left: bidder, right: id}], stateTtl: 1h}}
          - {id: ok, join: {left: bids, right: people, on: [{left: bidder, right: id}]}}
        sinks: {k: {input: ok, type: stdout}}
        """;
    assertThat(errors(spec)).containsExactly(
        new SpecError("/operators/0/join/window", "a window join needs event time, but source 'people' declares "
            + "no eventTime"),
        new SpecError("/operators/1/join/between", "an interval join needs event time, but source 'people' "
            + "declares no eventTime"),
        new SpecError("/operators/2/join/stateTtl", "a join with a stateTtl needs event time, but source 'people' "
            + "declares no eventTime"));
  }
}
