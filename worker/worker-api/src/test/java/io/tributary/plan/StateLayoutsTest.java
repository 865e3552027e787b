package io.tributary.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.CheckpointCodec;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.AggregatePlan.Function;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateLayoutsTest {
  private static final WindowPlan TEN_SECONDS = WindowPlan.tumbling(10_000);

  private static WindowAggregatePlan window(String id, AggregatePlan... aggregates) {
    return new WindowAggregatePlan(id, List.of("key"), TEN_SECONDS, 0, null, List.of(aggregates));
  }

  private static ExecutionPlan plan(OperatorPlan... operators) {
    return new ExecutionPlan("job", 128, "heap", List.of(new StagePlan(0, "s", 1, List.of(operators), List.of())),
        List.of());
  }

  @Test
  void statefulOperatorsHaveALayoutAndStatelessOnesNone() {
    ExecutionPlan plan = plan(
        new SourcePlan("src", "datagen", "json", null, 0, null, Map.of()),
        window("counts", new AggregatePlan("n", Function.COUNT, null), new AggregatePlan("t", Function.SUM, "v")),
        new GroupAggregatePlan("totals", List.of("key"), List.of(new AggregatePlan("d", Function.COUNT_DISTINCT, "v"))),
        JoinPlan.interval("pairs", List.of("k"), List.of("k"), -1, 1, null, Map.of()),
        new SinkPlan("out", "blackhole", "json", Map.of()));

    assertThat(StateLayouts.of(plan)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "counts", "window-aggregate [count, sum]",
        "totals", "group-aggregate [count distinct]",
        "pairs", "interval join"));
  }

  @Test
  void aggregatesKeepTheirStateWhenRenamedOrGivenOtherArgumentsButNotWhenAddedOrReordered() {
    Map<String, String> was = StateLayouts.of(plan(
        window("counts", new AggregatePlan("n", Function.COUNT, null), new AggregatePlan("t", Function.SUM, "v"))));

    assertThat(StateLayouts.mismatch(was, plan(window("counts", new AggregatePlan("views", Function.COUNT, null),
        new AggregatePlan("total", Function.SUM, "v * 2"))))).isNull();
    assertThat(StateLayouts.mismatch(was, plan(window("counts", new AggregatePlan("n", Function.COUNT, null),
        new AggregatePlan("t", Function.SUM, "v"), new AggregatePlan("top", Function.MAX, "v")))))
        .isEqualTo("operator 'counts' has state of a window-aggregate [count, sum], but is now a window-aggregate "
            + "[count, sum, max]; it keeps one accumulator per aggregate, in order, so the aggregates' functions and "
            + "order must stay (their names and arguments may change)");
    assertThat(StateLayouts.mismatch(was, plan(window("counts", new AggregatePlan("t", Function.SUM, "v"),
        new AggregatePlan("n", Function.COUNT, null))))).contains("is now a window-aggregate [sum, count]");
    assertThat(StateLayouts.mismatch(was, plan(new GroupAggregatePlan("counts", List.of("key"),
        List.of(new AggregatePlan("n", Function.COUNT, null), new AggregatePlan("t", Function.SUM, "v"))))))
        .isEqualTo("operator 'counts' has state of a window-aggregate [count, sum], but is now a group-aggregate "
            + "[count, sum]");
  }

  @Test
  void newOperatorsStartEmptyAndAnOperatorGoneLeavesItsStateUnrestorable() {
    Map<String, String> was = Map.of("counts", "window-aggregate [count]");
    assertThat(StateLayouts.mismatch(was, plan(window("counts", new AggregatePlan("n", Function.COUNT, null)),
        window("per-key", new AggregatePlan("n", Function.MAX, "v"))))).as("a new operator").isNull();
    assertThat(StateLayouts.mismatch(was, plan(window("per-key", new AggregatePlan("n", Function.COUNT, null)))))
        .isEqualTo("operator 'counts' has state of a window-aggregate [count], but the job no longer has a stateful "
            + "operator of that id (state belongs to an operator's id)");
    assertThat(StateLayouts.mismatch(Map.of(), plan(window("counts", new AggregatePlan("n", Function.MAX, "v")))))
        .as("a checkpoint written before layouts were recorded").isNull();
  }

  @Test
  void checkpointMetadataCarriesTheLayoutsAndReadsOlderMetadataWithout() throws Exception {
    CheckpointMetadata md = new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, 128, 0, List.of(),
        Map.of("counts", "window-aggregate [count]"));
    assertThat(CheckpointCodec.decode(CheckpointCodec.encode(md))).isEqualTo(md);

    CheckpointMetadata older = new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, 128, 0, List.of());
    String json = new String(CheckpointCodec.encode(older), StandardCharsets.UTF_8);
    assertThat(json).as("left out when empty").doesNotContain("stateLayouts");
    assertThat(CheckpointCodec.decode(json.getBytes(StandardCharsets.UTF_8)).stateLayouts()).isEmpty();
  }
}
