package io.tributary.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.CheckpointCodec;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.plan.StateLayouts.StateLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateLayoutsTest {
  private static final WindowPlan TEN_SECONDS = WindowPlan.tumbling(10_000);
  private static final AggregatePlan COUNT = new AggregatePlan("n", Function.COUNT, null);
  private static final AggregatePlan SUM = new AggregatePlan("t", Function.SUM, "v");
  private static final String NEW_ID =
      " (to start only this operator without state, give it a new id and set state.allowNonRestoredState: true)";

  private static WindowAggregatePlan window(String id, List<String> keys, AggregatePlan... aggregates) {
    return new WindowAggregatePlan(id, keys, TEN_SECONDS, 0, null, List.of(aggregates));
  }

  private static WindowAggregatePlan window(String id, AggregatePlan... aggregates) {
    return window(id, List.of("key"), aggregates);
  }

  private static ExecutionPlan plan(OperatorPlan... operators) {
    return new ExecutionPlan("job", 128, "heap", List.of(new StagePlan(0, "s", 1, List.of(operators), List.of())),
        List.of());
  }

  @Test
  void statefulOperatorsHaveALayoutAndStatelessOnesNone() {
    ExecutionPlan plan = plan(
        new SourcePlan("src", "datagen", "json", null, 0, null, Map.of()),
        window("counts", COUNT, SUM),
        new GroupAggregatePlan("totals", List.of("page"), List.of(new AggregatePlan("d", Function.COUNT_DISTINCT, "v"))),
        JoinPlan.interval("pairs", List.of("k"), List.of("k2"), -1, 1, null, Map.of()),
        new SinkPlan("out", "blackhole", "json", Map.of()));

    assertThat(StateLayouts.of(plan)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "counts", new StateLayout("window-aggregate", List.of("key"), List.of("count", "sum")),
        "totals", new StateLayout("group-aggregate", List.of("page"), List.of("count distinct")),
        "pairs", new StateLayout("interval join", List.of("k"), List.of())));
    assertThat(StateLayouts.of(plan).get("counts")).hasToString("window-aggregate [count, sum] keyed by [key]");
  }

  @Test
  void aggregatesKeepTheirStateWhenRenamedOrGivenOtherArgumentsButNotWhenAddedOrReordered() {
    Map<String, StateLayout> was = StateLayouts.of(plan(window("counts", COUNT, SUM)));

    assertThat(StateLayouts.mismatch(was, plan(window("counts", new AggregatePlan("views", Function.COUNT, null),
        new AggregatePlan("total", Function.SUM, "v * 2"))))).isNull();
    assertThat(StateLayouts.mismatch(was, plan(window("counts", COUNT, SUM,
        new AggregatePlan("top", Function.MAX, "v")))))
        .isEqualTo("operator 'counts' has state of the aggregates [count, sum], but now computes [count, sum, max]; "
            + "it keeps one accumulator per aggregate, in order, so the aggregates' functions and order must stay "
            + "(their names and arguments may change)" + NEW_ID);
    assertThat(StateLayouts.mismatch(was, plan(window("counts", SUM, COUNT)))).contains("now computes [sum, count]");
    assertThat(StateLayouts.mismatch(was, plan(new GroupAggregatePlan("counts", List.of("key"), List.of(COUNT, SUM)))))
        .startsWith("operator 'counts' has state of a window-aggregate, but is now a group-aggregate (to start only ");
  }

  @Test
  void stateStaysWithItsKeyFields() {
    Map<String, StateLayout> was = StateLayouts.of(plan(window("counts", COUNT)));
    assertThat(StateLayouts.mismatch(was, plan(window("counts", List.of("key", "id"), COUNT))))
        .isEqualTo("operator 'counts' has state keyed by [key], but is now keyed by [key, id]; state is kept per key, "
            + "so its key fields must stay" + NEW_ID);
    assertThat(StateLayouts.mismatch(was, plan(window("counts", List.of("user"), COUNT)))).contains("keyed by [user]");
  }

  @Test
  void newOperatorsStartEmptyAndAnOperatorGoneLeavesItsStateUnrestorable() {
    Map<String, StateLayout> was = StateLayouts.of(plan(window("counts", COUNT)));
    assertThat(StateLayouts.mismatch(was, plan(window("counts", COUNT), window("per-key", SUM))))
        .as("a new operator").isNull();
    assertThat(StateLayouts.mismatch(was, plan(window("per-key", COUNT))))
        .isEqualTo("operator 'counts' has state (a window-aggregate [count] keyed by [key]), but the job no longer has "
            + "a stateful operator of that id (state belongs to an operator's id; state.allowNonRestoredState: true "
            + "leaves it behind)");
    assertThat(StateLayouts.mismatch(Map.of(), plan(window("counts", SUM))))
        .as("a checkpoint written before layouts were recorded").isNull();
  }

  @Test
  void checkpointMetadataCarriesTheLayoutsAndReadsOlderMetadataWithout() throws Exception {
    CheckpointMetadata md = new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, 128, 0, List.of(),
        StateLayouts.of(plan(window("counts", COUNT), new TopNPlan("top", List.of("window_end"),
            List.of(new TopNPlan.SortKey("n", true, false)), 3, null))));
    assertThat(md.stateLayouts()).hasSize(2);
    assertThat(CheckpointCodec.decode(CheckpointCodec.encode(md))).isEqualTo(md);

    CheckpointMetadata older = new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, 128, 0, List.of());
    String json = new String(CheckpointCodec.encode(older), StandardCharsets.UTF_8);
    assertThat(json).as("left out when empty").doesNotContain("stateLayouts");
    assertThat(CheckpointCodec.decode(json.getBytes(StandardCharsets.UTF_8)).stateLayouts()).isEmpty();
  }

  @Test
  void aRestoreThatAllowsStateItDoesNotRestoreLeavesOnlyTheOperatorsThePlanNoLongerHas() {
    ExecutionPlan before = plan(new SourcePlan("src", "datagen", "json", null, 0, null, Map.of()),
        window("counts", COUNT), window("per-key", SUM), new SinkPlan("out", "blackhole", "json", Map.of()));
    io.tributary.state.StateSnapshot keyed = new io.tributary.state.StateSnapshot("heap", 7,
        new io.tributary.state.KeyGroupRange(0, 128), Map.of(0, "m"), 1, 1);
    io.tributary.checkpoint.OperatorState stateful = new io.tributary.checkpoint.OperatorState(5, keyed, "timers",
        null, null);
    io.tributary.checkpoint.OperatorState watermarkOnly = new io.tributary.checkpoint.OperatorState(5, null, null,
        null, null);
    CheckpointMetadata md = new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, 128, 0, List.of(
        new io.tributary.checkpoint.TaskState(0, 0, 1, 7, false, 0, 0, List.of(), Map.of("src", watermarkOnly,
            "counts", stateful, "per-key", stateful, "out", watermarkOnly))), StateLayouts.of(before));
    ExecutionPlan after = plan(new SourcePlan("src", "datagen", "json", null, 0, null, Map.of()),
        window("counts", COUNT), new SinkPlan("out", "blackhole", "json", Map.of()));

    assertThat(md.restoreMismatch(after)).contains("operator 'per-key' has state");
    assertThat(md.statefulOperatorsNotIn(after)).containsExactly("per-key");
    assertThat(md.statefulOperatorsNotIn(before)).isEmpty();
    CheckpointMetadata kept = md.withOperatorsOf(after);
    assertThat(kept.restoreMismatch(after)).isNull();
    assertThat(kept.stateLayouts()).containsOnlyKeys("counts");
    assertThat(kept.tasks().get(0).operators()).containsOnlyKeys("src", "counts", "out");
    assertThat(kept.operator("counts")).containsExactly(stateful);
    assertThat(kept.statefulOperatorsNotIn(after)).isEmpty();
    assertThat(md.withOperatorsOf(before)).as("nothing left out").isEqualTo(md);

    ExecutionPlan changed = plan(window("counts", COUNT, SUM));
    assertThat(md.withOperatorsOf(changed).restoreMismatch(changed)).as("a changed operator is still refused")
        .contains("operator 'counts' has state of the aggregates [count]");
  }
}
