package io.tributary.scheduler.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.SplitState;
import io.tributary.checkpoint.TaskState;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.StateLayouts.StateLayout;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.SourceSplits;
import io.tributary.protocol.SplitEnumerator;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.WorkerSlots;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.StateSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {
  private static final AttemptId ATTEMPT = new AttemptId("job", 3);
  private static final AttemptDeployment.CheckpointSettings ALIGNED = new AttemptDeployment.CheckpointSettings(true);

  /** src (p) -> out (q), hash exchange. */
  private static ExecutionPlan plan(int p, int q) {
    return new ExecutionPlan("job", 128, "heap", List.of(
        new StagePlan(0, "src", p, List.of(new SourcePlan("src", "files", "json", null, 0, null, Map.of())),
            List.of()),
        new StagePlan(1, "out", q, List.of(new SinkPlan("out", "blackhole", "json", Map.of())), List.of())),
        List.of(new EdgePlan(0, "src", null, 1, "out", EdgePlan.Partitioning.HASH, List.of("k"))));
  }

  /** A source of the given splits; {@code resumable} more can be recreated by id. */
  private static SplitEnumerator splits(boolean followParallelism, List<String> ids, String... resumable) {
    return new SplitEnumerator() {
      @Override
      public SourceSplits splits(SourcePlan source, int parallelism) {
        return new SourceSplits(ids, followParallelism);
      }

      @Override
      public boolean canResume(SourcePlan source, String splitId) {
        return List.of(resumable).contains(splitId);
      }
    };
  }

  private static final List<WorkerSlots> ONE = List.of(new WorkerSlots("w", 100));

  @Test
  void everySubtaskGetsItsKeyGroupsAndSplitsRoundRobin() {
    AttemptDeployment d = Placement.place(ATTEMPT, plan(2, 3), null, null, 0,
        splits(false, List.of("a", "b", "c")), ONE);

    assertThat(d.tasks()).hasSize(5);
    assertThat(d.task(0, 0).splits()).containsExactly("a", "c");
    assertThat(d.task(0, 1).splits()).containsExactly("b");
    assertThat(d.task(1, 0).splits()).isEmpty();
    assertThat(d.task(1, 0).keyGroups()).isEqualTo(new KeyGroupRange(0, 43));
    assertThat(d.task(1, 1).keyGroups()).isEqualTo(new KeyGroupRange(43, 86));
    assertThat(d.task(1, 2).keyGroups()).isEqualTo(new KeyGroupRange(86, 128));
    assertThat(d.tasks()).allMatch(t -> t.restore() == null);
    assertThat(d.sinkRecoveries()).as("no checkpoints, nothing to recover").isEmpty();
    assertThat(Placement.slotsNeeded(plan(2, 3))).isEqualTo(5);
  }

  /**
   * A rescale of the sink stage from 2 to 3: the subtasks that ran before go back to their workers
   * (their state files are cached there), and the new one goes where most slots are free; a subtask
   * whose worker granted no slot (it was lost) goes elsewhere.
   */
  @Test
  void subtasksGoBackToTheWorkersTheyRanOnWhereTheyCan() {
    Map<String, String> before = Map.of("0/0", "b", "0/1", "a", "1/0", "b", "1/1", "a");
    AttemptDeployment d = Placement.place(ATTEMPT, plan(2, 3), null, null, 0, splits(false, List.of("s")),
        List.of(new WorkerSlots("a", 2), new WorkerSlots("b", 2), new WorkerSlots("c", 1)), before);

    assertThat(d.tasks()).extracting(t -> t.taskId() + "@" + t.worker())
        .containsExactly("0/0@b", "0/1@a", "1/0@b", "1/1@a", "1/2@c");

    AttemptDeployment lostB = Placement.place(ATTEMPT, plan(2, 2), null, null, 0, splits(false, List.of("s")),
        List.of(new WorkerSlots("a", 2), new WorkerSlots("c", 2)), before);
    assertThat(lostB.tasks()).extracting(t -> t.taskId() + "@" + t.worker())
        .as("a's subtasks stay; b's move to c").containsExactly("0/0@c", "0/1@a", "1/0@c", "1/1@a");
  }

  @Test
  void aStagesSubtasksSpreadOverTheWorkersWithTheMostFreeSlots() {
    AttemptDeployment d = Placement.place(ATTEMPT, plan(2, 2), null, null, 0, splits(false, List.of("a")),
        List.of(new WorkerSlots("w1", 2), new WorkerSlots("w2", 2)));

    assertThat(d.tasks()).extracting(TaskDeployment::worker).containsExactly("w1", "w2", "w1", "w2");
    assertThatThrownBy(() -> Placement.place(ATTEMPT, plan(2, 2), null, null, 0, splits(false, List.of("a")),
        List.of(new WorkerSlots("w1", 3)))).hasMessageContaining("needs 4 slots but was granted 3");
  }

  @Test
  void aRestoreResumesTheCheckpointsSplitsAndAddsNewOnesUnlessSplitsFollowTheParallelism() {
    CheckpointMetadata md = checkpoint(128, "src", List.of("a", "b"));

    AttemptDeployment files = Placement.place(ATTEMPT, plan(1, 1), md, ALIGNED, 2,
        splits(false, List.of("a", "b", "c")), ONE);
    assertThat(files.task(0, 0).splits()).as("c appeared since").containsExactly("a", "b", "c");
    assertThat(files.task(0, 0).restore().splits()).containsOnlyKeys("a", "b");

    AttemptDeployment generator = Placement.place(ATTEMPT, plan(1, 1), md, ALIGNED, 2,
        splits(true, List.of("g0"), "a", "b"), ONE);
    assertThat(generator.task(0, 0).splits()).containsExactly("a", "b");

    AttemptDeployment recreated = Placement.place(ATTEMPT, plan(1, 1), md, ALIGNED, 2,
        splits(false, List.of("b"), "a"), ONE);
    assertThat(recreated.task(0, 0).splits()).as("a is no longer listed but can be read").containsExactly("a", "b");
    assertThatThrownBy(() -> Placement.place(ATTEMPT, plan(1, 1), md, ALIGNED, 2, splits(false, List.of("b")), ONE))
        .isInstanceOf(IncompatibleRestoreException.class).hasMessageContaining("cannot resume split 'a'");
  }

  @Test
  void everyTaskRestoresEveryEarlierSubtasksStateAndSinksRecoverOnce() {
    CheckpointMetadata md = checkpoint(128, "src", List.of("a"));

    AttemptDeployment d = Placement.place(ATTEMPT, plan(1, 2), md, ALIGNED, 3, splits(false, List.of("a")), ONE);

    assertThat(d.task(1, 1).restore().operator("out")).hasSize(2);
    assertThat(d.task(1, 1).restore().checkpointId()).isEqualTo(7);
    assertThat(d.sinkRecoveries()).singleElement().satisfies(r -> {
      assertThat(r.sinkId()).isEqualTo("out");
      assertThat(r.committables()).containsExactly("c0", "c1");
      assertThat(r.previousMaxParallelism()).as("the larger of the earlier attempts' and the checkpoint's").isEqualTo(3);
    });
  }

  @Test
  void stateThatCannotMoveIsRefusedAsTheUsers() {
    assertThatThrownBy(() -> Placement.place(ATTEMPT, plan(1, 1), checkpoint(256, "src", List.of("a")), ALIGNED, 0,
        splits(false, List.of("a")), ONE))
        .isInstanceOf(IncompatibleRestoreException.class).hasMessageContaining("maxParallelism is 128")
        .hasMessageContaining("taken with maxParallelism 256");
    CheckpointMetadata forst = new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, 128, 0, List.of(
        new TaskState(1, 0, 1, 7, false, 0, 0, List.of(), Map.of("out", new OperatorState(0,
            new StateSnapshot("forst", 7, new KeyGroupRange(0, 128), Map.of(), 0, 0), null, null)))));
    assertThatThrownBy(() -> Placement.place(ATTEMPT, plan(1, 1), forst, ALIGNED, 0, splits(false, List.of("a")),
        ONE)).isInstanceOf(IncompatibleRestoreException.class).hasMessageContaining("checkpoint 7 cannot be restored: "
            + "its state was written by the 'forst' state backend, and the job now uses 'heap'");
    CheckpointMetadata keyedGone = new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, 128, 0, List.of(
        new TaskState(1, 0, 1, 7, false, 0, 0, List.of(), Map.of("window", new OperatorState(0,
            new StateSnapshot("heap", 7, new KeyGroupRange(0, 128), Map.of(), 0, 0), null, null)))));
    assertThatThrownBy(() -> Placement.place(ATTEMPT, plan(1, 1), keyedGone, ALIGNED, 0, splits(false, List.of("a")),
        ONE)).isInstanceOf(IncompatibleRestoreException.class).hasMessageContaining("operator 'window'");
  }

  @Test
  void stateOfAnOperatorWhoseLayoutChangedIsRefusedAsTheUsers() {
    ExecutionPlan plan = new ExecutionPlan("job", 128, "heap", List.of(new StagePlan(0, "src", 1, List.of(
        new SourcePlan("src", "files", "json", null, 0, null, Map.of()),
        new WindowAggregatePlan("counts", List.of(), WindowPlan.tumbling(1000), 0, null, List.of(
            new AggregatePlan("n", AggregatePlan.Function.COUNT, null),
            new AggregatePlan("top", AggregatePlan.Function.MAX, "v")))), List.of())), List.of());
    CheckpointMetadata taken = checkpoint(128, "src", List.of("a"));
    CheckpointMetadata md = new CheckpointMetadata(taken.job(), taken.id(), taken.kind(), taken.epoch(), 128, 0,
        taken.tasks().subList(0, 1), Map.of("counts", new StateLayout("window-aggregate", List.of(), List.of("count"))));

    assertThatThrownBy(() -> Placement.place(ATTEMPT, plan, md, ALIGNED, 0, splits(false, List.of("a")), ONE))
        .isInstanceOf(IncompatibleRestoreException.class)
        .hasMessageStartingWith("checkpoint 7 cannot be restored: operator 'counts' has state of the aggregates "
            + "[count], but now computes [count, max]")
        .hasMessageEndingWith("Change the spec back, or start without state");
    CheckpointMetadata same = new CheckpointMetadata(md.job(), md.id(), md.kind(), md.epoch(), 128, 0, md.tasks(),
        Map.of("counts", new StateLayout("window-aggregate", List.of(), List.of("count", "max"))));
    assertThat(Placement.place(ATTEMPT, plan, same, ALIGNED, 0, splits(false, List.of("a")), ONE).tasks()).hasSize(1);
  }

  /** Checkpoint 7: source subtask 0 read {@code splitIds}; sink subtasks 0 and 1 pre-committed c0, c1. */
  private static CheckpointMetadata checkpoint(int maxParallelism, String source, List<String> splitIds) {
    List<SplitState> splits = splitIds.stream().map(id -> new SplitState(id, "10", 5, 4, 0, false)).toList();
    return new CheckpointMetadata("job", 7, CheckpointMetadata.CHECKPOINT, 2, maxParallelism, 0, List.of(
        new TaskState(0, 0, 1, 7, false, 0, 0, splits, Map.of(source, new OperatorState(4, null, null, null))),
        new TaskState(1, 0, 2, 7, false, 0, 0, List.of(), Map.of("out", new OperatorState(4, null, null, "c0"))),
        new TaskState(1, 1, 2, 7, false, 0, 0, List.of(), Map.of("out", new OperatorState(4, null, null, "c1")))));
  }
}
