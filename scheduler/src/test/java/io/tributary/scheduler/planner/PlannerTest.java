package io.tributary.scheduler.planner;

import static io.tributary.scheduler.spec.SpecTexts.job;
import static io.tributary.scheduler.spec.SpecTexts.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EdgePlan.Partitioning;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.SpecError;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerTest {
  private static ExecutionPlan plan(String text) {
    return Planner.plan(JobSpecs.parse(text));
  }

  @Test
  void plansTheExample() {
    ExecutionPlan plan = plan(resource("auction-activity.yaml"));

    assertThat(plan.jobName()).isEqualTo("auction-activity");
    assertThat(plan.maxParallelism()).isEqualTo(128);
    assertThat(plan.stateBackend()).isEqualTo("heap");
    assertThat(plan.stages()).extracting(StagePlan::name, StagePlan::parallelism).containsExactly(
        org.assertj.core.groups.Tuple.tuple("bids -> expensive -> bad", 2),
        org.assertj.core.groups.Tuple.tuple("per-auction -> out -> late", 2));
    StagePlan first = plan.stage(0);
    assertThat(first.links()).containsExactly(
        new ChainLink("bids", null, "expensive"), new ChainLink("bids", "bad-bids", "bad"));
    assertThat(first.operator("bids")).isInstanceOfSatisfying(SourcePlan.class, s -> {
      assertThat(s.deadLetterOutput()).isEqualTo("bad-bids");
      assertThat(s.maxRecordsPerSecond()).isEqualTo(1000.0);
      assertThat(s.eventTime().maxOutOfOrdernessMillis()).isEqualTo(4000);
    });
    assertThat(first.operator("expensive")).isEqualTo(new TransformPlan("expensive", "price > 1000",
        JobSpecs.parse(resource("auction-activity.yaml")).operators().get(0).select()));
    assertThat(plan.edges()).containsExactly(
        new EdgePlan(0, "expensive", null, 1, "per-auction", Partitioning.HASH, List.of("auction")));
    StagePlan second = plan.stage(1);
    assertThat(second.operator("per-auction")).isEqualTo(new WindowAggregatePlan("per-auction", List.of("auction"),
        WindowPlan.sliding(10_000, 2_000), 5_000, "late-bids", List.of(
            new AggregatePlan("bids", Function.COUNT, null),
            new AggregatePlan("top", Function.MAX, "price_eur"),
            new AggregatePlan("total", Function.SUM, "price_eur"))));
    assertThat(second.links()).containsExactly(
        new ChainLink("per-auction", null, "out"), new ChainLink("per-auction", "late-bids", "late"));
  }

  @Test
  void keyByAloneIsARepartition() {
    ExecutionPlan plan = plan("parallelism: 3\n" + job("""
        operators:
          - {id: r, input: src, keyBy: user}
        sinks: {k: {input: r, type: stdout}}
        """));

    assertThat(plan.stages()).extracting(StagePlan::name).containsExactly("src", "r -> k");
    assertThat(plan.stage(1).operator("r")).isEqualTo(new TransformPlan("r", null, null));
    assertThat(plan.edges()).containsExactly(new EdgePlan(0, "src", null, 1, "r", Partitioning.HASH, List.of("user")));
    assertThat(plan.stages()).allSatisfy(s -> assertThat(s.parallelism()).isEqualTo(3));
  }

  @Test
  void aGlobalWindowRunsAtParallelismOneWithWhatIsChainedAfterIt() {
    ExecutionPlan plan = plan("parallelism: 4\n" + job("""
        operators:
          - {id: g, input: src, window: {type: tumbling, size: 1m, lateOutput: g-late}, aggregate: {n: "count(*)"}}
          - {id: f, input: g, filter: "n > 10"}
          - {id: k2, input: f, keyBy: [n]}
        sinks:
          out: {input: k2, type: stdout}
          late: {input: g-late, type: blackhole}
        """));

    assertThat(plan.stages()).extracting(StagePlan::name, StagePlan::parallelism).containsExactly(
        org.assertj.core.groups.Tuple.tuple("src", 4),
        org.assertj.core.groups.Tuple.tuple("g -> f -> late", 1),
        org.assertj.core.groups.Tuple.tuple("k2 -> out", 4));
    assertThat(plan.edges()).containsExactly(
        new EdgePlan(0, "src", null, 1, "g", Partitioning.HASH, List.of()),
        new EdgePlan(1, "f", null, 2, "k2", Partitioning.HASH, List.of("n")));
    assertThat(plan.stage(1).links()).containsExactly(
        new ChainLink("g", null, "f"), new ChainLink("g", "g-late", "late"));
  }

  @Test
  void aGlobalWindowJoinsItsInputsStageAtParallelismOneUnlessCheckpointsAreUnaligned() {
    String ops = """
        operators:
          - {id: k, input: src, keyBy: [id], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
          - {id: g, input: k, window: {type: tumbling, size: 1s}, aggregate: {top: "max(n)"}}
          - {id: h, input: src, window: {type: tumbling, size: 1m}, aggregate: {all: "count(*)"}}
        sinks: {out: {input: g, type: stdout}, all: {input: h, type: stdout}}
        """;

    ExecutionPlan one = plan(job(ops));

    assertThat(one.stages()).extracting(StagePlan::name, StagePlan::parallelism).containsExactly(
        org.assertj.core.groups.Tuple.tuple("src -> h -> all", 1),
        org.assertj.core.groups.Tuple.tuple("k -> g -> out", 1));
    assertThat(one.edges()).containsExactly(new EdgePlan(0, "src", null, 1, "k", Partitioning.HASH, List.of("id")));
    assertThat(one.stage(0).links()).contains(new ChainLink("src", null, "h"));
    assertThat(one.stage(1).links()).contains(new ChainLink("k", null, "g"));

    ExecutionPlan two = Planner.plan(JobSpecs.parse(job(ops)), 2);
    assertThat(two.stages()).extracting(StagePlan::name, StagePlan::parallelism).containsExactly(
        org.assertj.core.groups.Tuple.tuple("src", 2),
        org.assertj.core.groups.Tuple.tuple("k", 2),
        org.assertj.core.groups.Tuple.tuple("g -> out", 1),
        org.assertj.core.groups.Tuple.tuple("h -> all", 1));
    assertThat(two.stages()).as("which stages can never be rescaled")
        .extracting(StagePlan::name, Planner::runsAtOneOnly).containsExactly(
            org.assertj.core.groups.Tuple.tuple("src", false),
            org.assertj.core.groups.Tuple.tuple("k", false),
            org.assertj.core.groups.Tuple.tuple("g -> out", true),
            org.assertj.core.groups.Tuple.tuple("h -> all", true));
    assertThat(one.stages()).as("chained into a stage whose source can be rescaled")
        .noneMatch(Planner::runsAtOneOnly);
    assertThat(Planner.joinsAtOne(two, head -> Planner.plan(JobSpecs.parse(job(ops)), 2, java.util.Map.of(head, 1))))
        .as("the global stages that would run in their input's task at 1")
        .isEqualTo(java.util.Map.of("g", "k", "h", "src"));
    assertThat(Planner.joinsAtOne(one, head -> one)).as("already there").isEmpty();
    ExecutionPlan oneSource = Planner.plan(JobSpecs.parse(job(ops)), 2, java.util.Map.of("src", 1));
    assertThat(oneSource.stages()).extracting(StagePlan::name).as("the input's stage at 1, not the job")
        .containsExactly("src -> h -> all", "k", "g -> out");

    ExecutionPlan unaligned = plan(job("checkpoints: {interval: 1s, unaligned: true}\n" + ops));
    assertThat(unaligned.stages()).extracting(StagePlan::name).containsExactly("src", "k", "g -> out", "h -> all");
    assertThat(unaligned.edges()).contains(new EdgePlan(1, "k", null, 2, "g", Partitioning.HASH, List.of()));
    String unalignedOps = "checkpoints: {interval: 1s, unaligned: true}\n" + ops;
    assertThat(Planner.joinsAtOne(Planner.plan(JobSpecs.parse(job(unalignedOps)), 2),
        head -> Planner.plan(JobSpecs.parse(job(unalignedOps)), 2, java.util.Map.of(head, 1))))
        .as("never chained with unaligned checkpoints").isEmpty();
  }

  @Test
  void aSideOutputBehindAnExchangeKeepsItsPort() {
    ExecutionPlan plan = plan(job("""
        operators:
          - {id: w, input: src, keyBy: k, window: {type: session, gap: 5s, lateOutput: lates}, aggregate: {n: "count(*)"}}
          - {id: rk, input: lates, keyBy: k}
        sinks: {o: {input: w, type: stdout}, l: {input: rk, type: stdout}}
        """));

    assertThat(plan.edges()).contains(new EdgePlan(1, "w", "lates", 2, "rk", Partitioning.HASH, List.of("k")));
  }

  @Test
  void parallelismOverrideReplacesInitialAndWidensTheBounds() {
    String text = resource("auction-activity.yaml");

    ExecutionPlan plan = Planner.plan(JobSpecs.parse(text), 5);

    assertThat(plan.stages()).allSatisfy(s -> assertThat(s.parallelism()).isEqualTo(5));
    assertThat(plan.maxParallelism()).isEqualTo(128);
    assertThatThrownBy(() -> Planner.plan(JobSpecs.parse(text), 129)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Planner.plan(JobSpecs.parse(text), 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aStageRunsAtItsOwnParallelismWhateverTheJobsAndTheExchangeStaysAHash() {
    String text = resource("auction-activity.yaml");

    ExecutionPlan plan = Planner.plan(JobSpecs.parse(text), 3, java.util.Map.of("per-auction", 4, "gone", 7));

    assertThat(plan.stages()).extracting(StagePlan::name, StagePlan::parallelism).containsExactly(
        org.assertj.core.groups.Tuple.tuple("bids -> expensive -> bad", 3),
        org.assertj.core.groups.Tuple.tuple("per-auction -> out -> late", 4));
    assertThat(plan.stages()).extracting(Planner::head).containsExactly("bids", "per-auction");
    assertThat(plan.edges()).containsExactly(
        new EdgePlan(0, "expensive", null, 1, "per-auction", Partitioning.HASH, List.of("auction")));
    ExecutionPlan source = Planner.plan(JobSpecs.parse(text), null, java.util.Map.of("bids", 1));
    assertThat(source.stages()).extracting(StagePlan::parallelism).containsExactly(1, 2);
    assertThatThrownBy(() -> Planner.plan(JobSpecs.parse(text), null, java.util.Map.of("per-auction", 129)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stage 'per-auction'");
  }

  @Test
  void aGlobalWindowStaysAtOneWhateverItsStageIsGiven() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse("parallelism: 2\n" + job("""
        operators:
          - {id: g, input: src, window: {type: tumbling, size: 1m}, aggregate: {n: "count(*)"}}
        sinks: {out: {input: g, type: stdout}}
        """)), null, java.util.Map.of("g", 3));

    assertThat(plan.stages()).extracting(StagePlan::parallelism).containsExactly(2, 1);
  }

  @Test
  void defaultMaxParallelismFollowsTheWidenedBound() {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(job("sinks: {k: {input: src, type: stdout}}\n")), 100);

    assertThat(plan.maxParallelism()).isEqualTo(256);
  }

  @Test
  void exactlyOnceKafkaSinkNeedsCheckpoints() {
    String text = job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, delivery: exactly-once}}\n");

    assertThat(JobSpecs.parse(text).sinks()).containsKey("k");
    assertThatThrownBy(() -> plan(text))
        .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.errors()).singleElement()
            .satisfies(error -> {
              assertThat(error.pointer()).isEqualTo("/sinks/k/delivery");
              assertThat(error.message()).startsWith("exactly-once delivery needs checkpoints")
                  .contains("checkpoints: {interval: 1m}");
            }));
  }

  @Test
  void exactlyOnceKafkaSinkPlansWhenItsTransactionsOutliveACheckpointIntervalAndARestart() {
    ExecutionPlan plan = plan(exactlyOnce("10m", ""));

    assertThat(plan.stage(0).operator("k")).isInstanceOfSatisfying(SinkPlan.class, s -> assertThat(s.properties())
        .containsEntry("delivery", "exactly-once"));
    assertThat(plan(exactlyOnce("839s", ""))).isNotNull(); // the default 15m > 839s + 1m
    assertThat(plan(exactlyOnce("1h", ", transactionTimeout: 62m"))).isNotNull();
    assertThat(plan(exactlyOnce("30s", ", properties: {transaction.timeout.ms: 90001}"))).isNotNull();
  }

  @Test
  void transactionTimeoutMustExceedTheCheckpointIntervalPlusTheRestartAllowance() {
    assertThat(deliveryErrors(exactlyOnce("14m", ""))).containsExactly(new SpecError("/sinks/k/transactionTimeout",
        "the transaction timeout 15m (the default) must be larger than the checkpoint interval 14m plus 1m allowed "
            + "for a restart (15m): a transaction stays open until the checkpoint after it completes, and after a "
            + "failure until the restarted job commits it; Kafka aborts it when it times out, and its records are "
            + "lost. Set a larger transactionTimeout (the broker caps it at transaction.max.timeout.ms, 15m by "
            + "default) or checkpoint more often"));
    assertThat(deliveryErrors(exactlyOnce("1m", ", transactionTimeout: 90s"))).singleElement()
        .satisfies(e -> assertThat(e.message()).startsWith("the transaction timeout 90s must be larger than the "
            + "checkpoint interval 1m plus 1m allowed for a restart (2m)"));
    assertThat(deliveryErrors(exactlyOnce("30s", ", properties: {transaction.timeout.ms: 90000}"))).singleElement()
        .satisfies(e -> assertThat(e.message())
            .startsWith("the transaction timeout 90s (from properties.transaction.timeout.ms) must be"));
  }

  @Test
  void upsertAndAtLeastOnceKafkaSinksNeedNoCheckpoints() {
    assertThat(plan(job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, delivery: upsert, "
        + "keyFields: [id]}}\n"))).isNotNull();
    assertThat(plan(job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t}}\n"))).isNotNull();
  }

  private static String exactlyOnce(String checkpointInterval, String sinkExtras) {
    return job("checkpoints: {interval: " + checkpointInterval + "}\nsinks: {k: {input: src, type: kafka, "
        + "bootstrapServers: b, topic: t, delivery: exactly-once" + sinkExtras + "}}\n");
  }

  private static List<SpecError> deliveryErrors(String text) {
    try {
      plan(text);
      return List.of();
    } catch (InvalidSpecException e) {
      return e.errors();
    }
  }

  @Test
  void twoSourcesMakeTwoStageTrees() {
    ExecutionPlan plan = plan("""
        name: j
        sources:
          a: {type: datagen}
          b: {type: nexmark}
        operators:
          - {id: ka, input: a, keyBy: x}
        sinks: {sa: {input: ka, type: stdout}, sb: {input: b, type: stdout}}
        """);

    assertThat(plan.stages()).extracting(StagePlan::name).containsExactly("a", "ka -> sa", "b -> sb");
    assertThat(plan.edges()).allSatisfy(e -> assertThat(e.fromStage()).isLessThan(e.toStage()));
  }
}
