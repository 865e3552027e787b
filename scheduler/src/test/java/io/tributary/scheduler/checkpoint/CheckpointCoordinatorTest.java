package io.tributary.scheduler.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.CheckpointTarget;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint coordinator against a fake job whose task acknowledgements the test sends
 * (contract C9): completion needs every task, the metadata object is written and the latest
 * pointer advanced before the job commits, declines abort, finished tasks stand in with their final
 * state, old checkpoints are deleted, and a coordinator of an older run can neither move the
 * pointer nor commit.
 */
class CheckpointCoordinatorTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String JOB = "orders";

  @TempDir
  Path dir;

  private final InMemoryObjectStore objects = new InMemoryObjectStore();
  private final List<CheckpointCoordinator> coordinators = new ArrayList<>();
  private EmbeddedMetadataStore metadata;
  private CheckpointStore store;

  @BeforeEach
  void open() {
    metadata = new EmbeddedMetadataStore(dir);
    store = new CheckpointStore(JOB, objects, metadata);
  }

  @AfterEach
  void close() {
    coordinators.forEach(CheckpointCoordinator::close);
    metadata.close();
  }

  @Test
  void aCheckpointThatNotEveryTaskAcknowledgedNeverCompletes() throws Exception {
    Run run = start(2, 3);
    CompletableFuture<CheckpointMetadata> done = run.coordinator.triggerCheckpoint();
    long id = run.job.nextTrigger();
    run.coordinator.acknowledge(id, acked(0, id));
    closeNow(run); // handles everything sent before, then stops

    assertThat(done).as("one of two tasks acknowledged").isNotDone();
    assertThat(objects.exists(store.metadataPath(CheckpointMetadata.CHECKPOINT, id))).isFalse();
    assertThat(store.latest()).isEmpty();
    assertThat(run.job.notified).isEmpty();
    assertThat(run.events.completed).isEmpty();
  }

  @Test
  void onlyTheCheckpointAskedToStopTheSourcesStopsThem() throws Exception {
    Run run = start(1, 3);
    long plain = run.checkpoint(false);
    CompletableFuture<CheckpointMetadata> last = run.coordinator.triggerCheckpoint(true);
    long stopping = run.job.nextTrigger();
    run.coordinator.acknowledge(stopping, acked(0, stopping));
    assertThat(last.get(WAIT.toMillis(), TimeUnit.MILLISECONDS).id()).isEqualTo(stopping);
    long after = run.checkpoint(false);
    CompletableFuture<CheckpointMetadata> savepoint = run.coordinator.triggerSavepoint();
    long sp = run.job.nextTrigger();

    assertThat(run.job.stoppingSources).as("not %d, %d nor the savepoint %d", plain, after, sp)
        .containsExactly(stopping);
    assertThat(savepoint).isNotDone();
  }

  @Test
  void aCheckpointCompletesOnceEveryTaskAckedAndCommitsOnlyAfterThePointerNamesIt() throws Exception {
    Run run = start(2, 3);
    CompletableFuture<CheckpointMetadata> done = run.coordinator.triggerCheckpoint();
    long id = run.job.nextTrigger();
    assertThat(id).isEqualTo(1);
    run.coordinator.acknowledge(id, acked(0, id));
    run.coordinator.acknowledge(id, acked(1, id));

    CheckpointMetadata md = done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    String path = store.metadataPath(CheckpointMetadata.CHECKPOINT, id);
    assertThat(md.id()).isEqualTo(id);
    assertThat(md.epoch()).isEqualTo(run.epoch);
    assertThat(md.tasks()).extracting(TaskState::taskId).containsExactly("0/0", "1/0");
    assertThat(store.load(path)).isEqualTo(md);
    assertThat(store.latest()).hasValueSatisfying(p -> {
      assertThat(p.id()).isEqualTo(id);
      assertThat(p.path()).isEqualTo(path);
    });
    assertThat(run.job.notified).containsExactly(md);
    assertThat(run.job.latestWhenNotified).as("the pointer had advanced when the job committed").containsExactly(id);
    CheckpointCoordinator.CheckpointStats stats = run.events.completed.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(stats).isNotNull();
    assertThat(stats.path()).isEqualTo(path);
    assertThat(stats.maxAlignmentNanos()).isEqualTo(10);
  }

  @Test
  void anEntryRecordsTheTimesSizesUploadsAlignmentAndParallelismOfItsCheckpoint() throws Exception {
    Run run = start(2, 3);
    long before = System.currentTimeMillis();
    CompletableFuture<CheckpointMetadata> done = run.coordinator.triggerCheckpoint();
    long id = run.job.nextTrigger();
    objects.put(timers(id), new byte[700]);
    run.coordinator.acknowledge(id, withState(0, id, 2, 3_000_000, 10_000, 4_000, timers(id)));
    long firstAcked = System.nanoTime();
    // stage 1 acknowledges at least 30 ms after stage 0 (time passing, not a wait for anything)
    while (System.nanoTime() - firstAcked < TimeUnit.MILLISECONDS.toNanos(30)) {
      Thread.onSpinWait();
    }
    run.coordinator.acknowledge(id, withState(1, id, 4, 1_000, 5_000, 1_500, null));
    done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    long after = System.currentTimeMillis();

    CheckpointStore.Summary s = store.checkpoints().get(0).summary();
    assertThat(s.triggeredAtMillis()).isBetween(before, after);
    assertThat(s.completedAtMillis()).isBetween(s.triggeredAtMillis(), after);
    assertThat(s.durationMillis()).isBetween(0L, after - before);
    assertThat(s.alignmentNanos()).isEqualTo(3_000_000);
    assertThat(s.stateBytes()).as("full size").isEqualTo(15_000);
    assertThat(s.incrementalBytes()).as("keyed state written for it").isEqualTo(5_500);
    assertThat(s.uploadedBytes()).as("with timers and metadata")
        .isEqualTo(5_500 + 700 + objects.size(checkpointPath(id)));
    assertThat(s.parallelism()).isEqualTo(4);
    assertThat(s.trigger()).isNull();
    CheckpointCoordinator.CheckpointStats stats = run.events.completed.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(stats.summary()).isEqualTo(s);
    assertThat(stats.stateBytes()).isEqualTo(15_000);
    assertThat(stats.operatorStateBytes()).as("per operator with keyed state")
        .isEqualTo(Map.of("op-0", 10_000L, "op-1", 5_000L));
    assertThat(stats.stageAckMillis()).as("per stage, until its last task acknowledged").containsOnlyKeys(0, 1);
    assertThat(stats.stageAckMillis().get(1)).isGreaterThanOrEqualTo(stats.stageAckMillis().get(0) + 29)
        .isLessThanOrEqualTo(stats.durationMillis());
  }

  @Test
  void aFinishedTasksUploadsCountOnceAndItsAlignmentNever() throws Exception {
    Run run = start(2, 3);
    run.coordinator.finished(asFinal(withState(0, -1, 1, 9_000_000, 800, 800, null)));
    long[] ids = new long[2];
    for (int i = 0; i < 2; i++) {
      CompletableFuture<CheckpointMetadata> done = run.coordinator.triggerCheckpoint();
      ids[i] = run.job.nextTrigger();
      run.coordinator.acknowledge(ids[i], withState(1, ids[i], 1, 1_000, 100, 10, null));
      done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
    List<CheckpointStore.Summary> entries = store.checkpoints().stream().map(CheckpointStore.Retained::summary).toList();
    assertThat(entries).extracting(CheckpointStore.Summary::stateBytes).containsExactly(900L, 900L);
    assertThat(entries).extracting(CheckpointStore.Summary::incrementalBytes).containsExactly(810L, 10L);
    assertThat(entries).extracting(CheckpointStore.Summary::alignmentNanos).containsExactly(1_000L, 1_000L);
  }

  @Test
  void entriesOfOlderVersionsReadWithTheFieldsTheyHave() {
    metadata.put("jobs/" + JOB + "/checkpoints/" + String.format("%019d", 5), ("{\"id\":5,\"kind\":\"checkpoint\","
        + "\"path\":\"p\",\"summary\":{\"trigger\":null,\"stateBytes\":4096,\"durationMillis\":350,"
        + "\"parallelism\":3,\"completedAtMillis\":1000}}").getBytes(StandardCharsets.UTF_8), 0);
    metadata.put("jobs/" + JOB + "/checkpoints/" + String.format("%019d", 6),
        "{\"id\":6,\"kind\":\"checkpoint\",\"path\":\"q\"}".getBytes(StandardCharsets.UTF_8), 0);

    assertThat(store.checkpoints()).extracting(CheckpointStore.Retained::summary).containsExactly(
        new CheckpointStore.Summary(null, 4096L, 350L, 3, 1000L, null, null, null, null), null);
    assertThat(store.retained(CheckpointMetadata.CHECKPOINT, 6)).hasValueSatisfying(r -> assertThat(r.path())
        .isEqualTo("q"));
    assertThat(store.retained(CheckpointMetadata.SAVEPOINT, 6)).isEmpty();
  }

  @Test
  void aDeclineAbortsTheCheckpointAndItsLateAcksAreIgnored() throws Exception {
    Run run = start(2, 3);
    CompletableFuture<CheckpointMetadata> first = run.coordinator.triggerCheckpoint();
    long id = run.job.nextTrigger();
    run.coordinator.acknowledge(id, acked(0, id));
    run.coordinator.decline(id, "stage 1 (1/1)", new IOException("disk full"));

    assertThat(run.events.aborted.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .startsWith(id + ": ").contains("stage 1 (1/1)").contains("disk full");
    assertThatThrownBy(() -> first.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .isInstanceOf(ExecutionException.class).hasMessageContaining("aborted");
    run.coordinator.acknowledge(id, acked(1, id)); // too late

    CompletableFuture<CheckpointMetadata> second = run.coordinator.triggerCheckpoint();
    long next = run.job.nextTrigger();
    assertThat(next).as("ids are never reused").isGreaterThan(id);
    run.coordinator.acknowledge(next, acked(0, next));
    run.coordinator.acknowledge(next, acked(1, next));
    assertThat(second.get(WAIT.toMillis(), TimeUnit.MILLISECONDS).id()).isEqualTo(next);

    assertThat(objects.exists(store.metadataPath(CheckpointMetadata.CHECKPOINT, id))).isFalse();
    assertThat(run.job.notified).extracting(CheckpointMetadata::id).containsExactly(next);
    assertThat(store.latest().orElseThrow().id()).isEqualTo(next);
  }

  @Test
  void aTaskThatFinishedStandsInLaterCheckpointsWithItsFinalState() throws Exception {
    Run run = start(2, 3);
    run.coordinator.finished(finalState(0, -1));
    CompletableFuture<CheckpointMetadata> done = run.coordinator.triggerCheckpoint();
    long id = run.job.nextTrigger();
    run.coordinator.acknowledge(id, acked(1, id));

    CheckpointMetadata md = done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(md.tasks()).extracting(TaskState::taskId, TaskState::finished)
        .containsExactly(tuple("0/0", true), tuple("1/0", false));
    assertThat(md.committables())
        .containsEntry("op-0", List.of("final-0"))
        .containsEntry("op-1", List.of("pre-1-" + id));
    assertThat(run.coordinator.finalCheckpoint()).as("task 1/0 still runs").isNotDone();

    run.coordinator.finished(finalState(1, id));
    CheckpointMetadata last = run.coordinator.finalCheckpoint().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(last.id()).isGreaterThan(id);
    assertThat(last.tasks()).allMatch(TaskState::finished);
    assertThat(last.committables()).containsEntry("op-0", List.of("final-0")).containsEntry("op-1", List.of("final-1"));
    assertThat(store.latest().orElseThrow().id()).isEqualTo(last.id());
    assertThat(run.job.notified).extracting(CheckpointMetadata::id).containsExactly(id, last.id());
  }

  @Test
  void aCheckpointThatCannotBeTriggeredIsAbortedAndTheIntervalGoesOn() throws Exception {
    CheckpointStore.Run r = store.beginRun(1);
    java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger(2);
    FakeJob job = new FakeJob(1) {
      @Override
      public void trigger(long checkpointId) {
        if (refusals.getAndDecrement() > 0) {
          throw new IllegalStateException("worker w-1 is unreachable");
        }
        super.trigger(checkpointId);
      }
    };
    Events events = new Events();
    CheckpointCoordinator c = new CheckpointCoordinator(
        new CheckpointCoordinator.Settings(JOB, 128, 20, 0, 3), store, r, Map.of(), events);
    coordinators.add(c);
    c.start(job);

    long id = job.nextTrigger();
    assertThat(id).as("the third checkpoint reached the tasks").isEqualTo(3);
    assertThat(events.aborted.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo("1: the tasks could not be told to take it: worker w-1 is unreachable");
    c.acknowledge(id, acked(0, id));
    assertThat(events.completed.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNotNull()
        .extracting(CheckpointCoordinator.CheckpointStats::id).isEqualTo(id);
  }

  @Test
  void theFinalCheckpointIsTakenWhenEveryTaskFinishedBeforeTheCoordinatorStarted() throws Exception {
    CheckpointStore.Run r = store.beginRun(1);
    FakeJob job = new FakeJob(2);
    Events events = new Events();
    CheckpointCoordinator c = new CheckpointCoordinator(
        new CheckpointCoordinator.Settings(JOB, 128, 100, 0, 3), store, r, Map.of(), events);
    coordinators.add(c);
    c.finished(finalState(0, -1));
    c.finished(finalState(1, -1));
    c.start(job);

    CheckpointMetadata last = c.finalCheckpoint().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(last.tasks()).hasSize(2).allMatch(TaskState::finished);
    assertThat(job.notified).containsExactly(last);
  }

  @Test
  void aFinalCheckpointWhoseMetadataWriteFailsOnceDoesNotLeaveTheRunWaitingForever() throws Exception {
    FlakyObjects flaky = new FlakyObjects(objects);
    CheckpointStore flakyStore = new CheckpointStore(JOB, flaky, metadata);
    CheckpointCoordinator c = new CheckpointCoordinator(new CheckpointCoordinator.Settings(JOB, 128, 0, 0, 3),
        flakyStore, flakyStore.beginRun(1), Map.of(), new Events());
    coordinators.add(c);
    FakeJob job = new FakeJob(1);
    c.start(job);
    flaky.failNextWrite();
    c.finished(finalState(0, -1));

    try {
      c.finalCheckpoint().get(WAIT.toMillis(), TimeUnit.MILLISECONDS); // retried
    } catch (ExecutionException e) {
      // or the run fails (and restarts from the latest checkpoint): also fine, only waiting forever is not
    }
  }

  @Test
  void aFinalStateDoesNotStandForACheckpointWhoseBarrierTheTaskAlreadyTook() throws Exception {
    Run run = start(2, 3);
    CompletableFuture<CheckpointMetadata> done = run.coordinator.triggerCheckpoint();
    long id = run.job.nextTrigger();
    // task 0/0 took barrier `id` (its upload is still running), then its input ended
    run.coordinator.finished(finalState(0, id));
    run.coordinator.acknowledge(id, acked(1, id));
    run.coordinator.acknowledge(id, acked(0, id));
    CheckpointMetadata md = done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(md.tasks()).noneMatch(TaskState::finished);
    assertThat(md.committables()).containsEntry("op-0", List.of("pre-0-" + id));
  }

  @Test
  void deletingADiscardedCheckpointHoldsUpNeitherLaterCheckpointsNorClosing() throws Exception {
    CountDownLatch deletesMayRun = new CountDownLatch(1);
    store = new CheckpointStore(JOB, new io.tributary.state.store.ForwardingObjectStore(objects) {
      @Override
      public void delete(String name) throws java.io.IOException {
        try {
          deletesMayRun.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        super.delete(name);
      }
    }, metadata);
    Run run = start(1, 1);
    long first = run.checkpoint(false);
    run.checkpoint(false); // discards the first: its deletes wait
    run.checkpoint(false);
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(WAIT, () -> closeNow(run));
    assertThat(objects.exists(checkpointPath(first))).isTrue();

    deletesMayRun.countDown();
    await("the discarded checkpoints are deleted after all",
        () -> !objects.exists(checkpointPath(first)) && !objects.exists(timers(first)));
  }

  @Test
  void retentionKeepsTheNewestCheckpointsAndSavepointsAndDeletesTheRest() throws Exception {
    Run run = start(1, 2);
    List<Long> ids = new ArrayList<>();
    ids.add(run.checkpoint(false));
    ids.add(run.checkpoint(false));
    long savepoint = run.checkpoint(true);
    ids.add(run.checkpoint(false));
    ids.add(run.checkpoint(false));

    List<String> gone = List.of(checkpointPath(ids.get(0)), timers(ids.get(0)), checkpointPath(ids.get(1)),
        timers(ids.get(1)));
    await("the two oldest checkpoints are deleted", () -> gone.stream().noneMatch(objects::exists));
    for (long kept : ids.subList(2, 4)) {
      assertThat(objects.exists(checkpointPath(kept))).isTrue();
      assertThat(objects.exists(timers(kept))).isTrue();
    }
    assertThat(objects.exists(store.metadataPath(CheckpointMetadata.SAVEPOINT, savepoint))).isTrue();
    assertThat(store.checkpoints()).extracting(CheckpointStore.Retained::id)
        .containsExactlyElementsOf(ids.subList(2, 4));
    assertThat(store.savepoints()).extracting(CheckpointStore.Retained::id).containsExactly(savepoint);
  }

  @Test
  void aSavepointIsRecordedOnlyOnceItsStateIsCopiedIntoItsDirectoryAndItsEntryDescribesIt() throws Exception {
    Run run = start(1, 2);
    long savepoint = run.checkpoint(true);
    String path = store.metadataPath(CheckpointMetadata.SAVEPOINT, savepoint);
    String dir = store.savepointDirectory(savepoint);

    assertThat(objects.getBytes(dir + "/timers/op-0-0")).asString(StandardCharsets.UTF_8).isEqualTo("timers");
    assertThat(io.tributary.checkpoint.CheckpointCodec.decode(objects.getBytes(path)).objectNames())
        .as("written relative to its directory").containsExactly("./timers/op-0-0");
    CheckpointMetadata loaded = store.load(path);
    assertThat(loaded.objectNames()).containsExactly(dir + "/timers/op-0-0");
    assertThat(CheckpointStore.isSelfContained(loaded, path)).isTrue();
    CheckpointStore.Retained entry = store.savepoints().get(0);
    assertThat(entry.summary()).isNotNull();
    assertThat(entry.summary().trigger()).isEqualTo("user");
    assertThat(entry.summary().parallelism()).isEqualTo(1);
    assertThat(entry.summary().stateBytes()).isZero();
    assertThat(entry.summary().completedAtMillis())
        .isEqualTo(entry.summary().triggeredAtMillis() + entry.summary().durationMillis());
    assertThat(entry.summary().triggeredAtMillis()).isLessThanOrEqualTo(loaded.createdAtMillis());
    assertThat(entry.summary().durationMillis()).isNotNull().isNotNegative();
    assertThat(entry.summary().uploadedBytes()).as("its task's timers and its metadata, not the copies")
        .isEqualTo("timers".length() + objects.size(path));

    assertThat(objects.exists(timers(savepoint))).as("the task's own timers, until a checkpoint follows").isTrue();
    run.checkpoint(false);
    await("the state the task wrote for the savepoint is released", () -> !objects.exists(timers(savepoint)));
    assertThat(objects.exists(dir + "/timers/op-0-0")).isTrue();
  }

  @Test
  void aSelfContainedSavepointIsDeletedWithItsDirectoryWhileEntriesOfOlderVersionsStayReadable() throws Exception {
    Run run = start(1, 2);
    long savepoint = run.checkpoint(true);
    long checkpoint = run.checkpoint(false);
    CheckpointMetadata old = new CheckpointMetadata(JOB, 100, CheckpointMetadata.SAVEPOINT, 1, 128, 5, List.of());
    store.addRetained(old, store.writeMetadata(old)); // as older versions recorded them: no summary
    assertThat(store.savepoints()).extracting(CheckpointStore.Retained::id).containsExactly(savepoint, 100L);
    assertThat(store.savepoints().get(1).summary()).isNull();

    assertThat(store.deleteSavepoint(savepoint)).isTrue();
    assertThat(store.deleteSavepoint(savepoint)).as("unknown now").isFalse();
    assertThat(objects.list(store.savepointDirectory(savepoint) + "/")).isEmpty();
    assertThat(store.savepoints()).extracting(CheckpointStore.Retained::id).containsExactly(100L);
    assertThat(objects.exists(checkpointPath(checkpoint))).isTrue();
  }

  @Test
  void retentionGoesOnInTheNextRun() throws Exception {
    Run first = start(1, 2);
    long a = first.checkpoint(false);
    long b = first.checkpoint(false);
    closeNow(first);

    Run second = start(1, 2);
    long c = second.checkpoint(false);
    assertThat(c).isGreaterThan(b);
    await("checkpoint " + a + " of the first run is deleted", () -> !objects.exists(checkpointPath(a)));
    assertThat(store.checkpoints()).extracting(CheckpointStore.Retained::id).containsExactly(b, c);
  }

  @Test
  void aStaleCoordinatorCanNeitherAdvanceThePointerNorCommit() throws Exception {
    Run stale = start(1, 3);
    long committed = stale.checkpoint(false);
    CompletableFuture<CheckpointMetadata> inFlight = stale.coordinator.triggerCheckpoint();
    long id = stale.job.nextTrigger();

    Run current = start(1, 3); // a new run of the job takes a newer epoch
    assertThat(current.epoch).isGreaterThan(stale.epoch);
    stale.coordinator.acknowledge(id, acked(0, id));

    Throwable failure = stale.events.failed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(failure).hasMessageContaining("newer run");
    assertThatThrownBy(() -> inFlight.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .isInstanceOf(ExecutionException.class);
    assertThat(store.latest().orElseThrow().id()).as("the pointer did not move").isEqualTo(committed);
    assertThat(stale.job.notified).extracting(CheckpointMetadata::id).containsExactly(committed);
    assertThat(stale.events.completed).hasSize(1);
    assertThatThrownBy(() -> stale.coordinator.triggerCheckpoint().get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .as("a fenced coordinator triggers nothing more").isInstanceOf(ExecutionException.class);
    assertThat(current.job.notified).isEmpty();
  }

  @Test
  void aNewRunCompletesItsFirstCheckpointWhateverAStaleCoordinatorLeftBehind() throws Exception {
    Run stale = start(1, 3);
    stale.checkpoint(false);
    stale.coordinator.triggerCheckpoint();
    long staleId = stale.job.nextTrigger();
    Run current = start(1, 3);
    stale.coordinator.acknowledge(staleId, acked(0, staleId));
    stale.events.failed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

    CompletableFuture<CheckpointMetadata> done = current.coordinator.triggerCheckpoint();
    long id = current.job.nextTrigger();
    current.coordinator.acknowledge(id, acked(0, id));
    CheckpointMetadata md = done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(md.epoch()).isEqualTo(current.epoch);
    assertThat(store.latest().orElseThrow().id()).isEqualTo(md.id());
    assertThat(store.load(store.latest().orElseThrow().path()).epoch()).isEqualTo(current.epoch);
  }

  @Test
  void closingReturnsPromptlyAlthoughCheckpointTimeoutsAreStillScheduled() throws Exception {
    CheckpointStore.Run r = store.beginRun(1);
    FakeJob job = new FakeJob(1);
    CheckpointCoordinator c = new CheckpointCoordinator(
        new CheckpointCoordinator.Settings(JOB, 128, 0, Duration.ofMinutes(10).toMillis(), 3), store, r, Map.of(),
        new Events());
    c.start(job);
    CompletableFuture<CheckpointMetadata> done = c.triggerCheckpoint();
    long id = job.nextTrigger();
    c.acknowledge(id, acked(0, id));
    done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

    long start = System.nanoTime();
    c.close();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close() of a coordinator with nothing in flight")
        .isLessThan(Duration.ofSeconds(2));
  }

  // ---- fixture ----

  /** Closes a run's coordinator now (not again after the test: a second close throws). */
  private void closeNow(Run run) {
    coordinators.remove(run.coordinator);
    run.coordinator.close();
  }

  /** A coordinator of a new run of the job, started on a fake job of {@code tasks} tasks. */
  private Run start(int tasks, int retain) {
    CheckpointStore.Run r = store.beginRun(1);
    FakeJob job = new FakeJob(tasks);
    Events events = new Events();
    CheckpointCoordinator c = new CheckpointCoordinator(
        new CheckpointCoordinator.Settings(JOB, 128, 0, 0, retain), store, r, Map.of(), events);
    coordinators.add(c);
    c.start(job);
    return new Run(c, job, events, r.epoch());
  }

  private record Run(CheckpointCoordinator coordinator, FakeJob job, Events events, long epoch) {
    /** Takes a checkpoint (or savepoint) of a one-task job whose state has a timers object. */
    long checkpoint(boolean savepoint) throws Exception {
      CompletableFuture<CheckpointMetadata> f =
          savepoint ? coordinator.triggerSavepoint() : coordinator.triggerCheckpoint();
      long id = job.nextTrigger();
      String timers = timers(id);
      job.objects.put(timers, "timers".getBytes(StandardCharsets.UTF_8));
      coordinator.acknowledge(id, new TaskState(0, 0, 1, id, false, 0, 0, List.of(),
          Map.of("op-0", new OperatorState(7, null, timers, null))));
      CheckpointMetadata md = f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(md.isSavepoint()).isEqualTo(savepoint);
      return id;
    }
  }

  /** A job as the coordinator sees it: records triggers and commits. */
  private class FakeJob implements CheckpointTarget {
    final int tasks;
    final InMemoryObjectStore objects = CheckpointCoordinatorTest.this.objects;
    final BlockingQueue<Long> triggered = new LinkedBlockingQueue<>();
    final List<Long> stoppingSources = new CopyOnWriteArrayList<>();
    final List<CheckpointMetadata> notified = new CopyOnWriteArrayList<>();
    final List<Long> latestWhenNotified = new CopyOnWriteArrayList<>();

    FakeJob(int tasks) {
      this.tasks = tasks;
    }

    @Override
    public int taskCount() {
      return tasks;
    }

    @Override
    public void trigger(long checkpointId) {
      triggered.add(checkpointId);
    }

    @Override
    public void trigger(long checkpointId, boolean stopSources) {
      if (stopSources) {
        stoppingSources.add(checkpointId);
      }
      trigger(checkpointId);
    }

    @Override
    public void notifyComplete(CheckpointMetadata md) {
      latestWhenNotified.add(store.latest().map(CheckpointStore.Pointer::id).orElse(-1L));
      notified.add(md);
    }

    long nextTrigger() throws InterruptedException {
      Long id = triggered.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(id).as("a checkpoint was triggered").isNotNull();
      return id;
    }
  }

  /** An object store whose next metadata write fails, as a transient outage would. */
  private static final class FlakyObjects extends io.tributary.state.store.ForwardingObjectStore {
    private final java.util.concurrent.atomic.AtomicBoolean failNext = new java.util.concurrent.atomic.AtomicBoolean();

    FlakyObjects(ObjectStore delegate) {
      super(delegate);
    }

    void failNextWrite() {
      failNext.set(true);
    }

    @Override
    public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
      if (failNext.compareAndSet(true, false)) {
        throw new IOException("object store unavailable");
      }
      return delegate.putIfAbsent(name, bytes);
    }

    @Override
    public void close() {}
  }

  private static final class Events implements CheckpointCoordinator.Listener {
    final BlockingQueue<CheckpointCoordinator.CheckpointStats> completed = new LinkedBlockingQueue<>();
    final BlockingQueue<String> aborted = new LinkedBlockingQueue<>();
    final CompletableFuture<Throwable> failed = new CompletableFuture<>();

    @Override
    public void completed(CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats stats) {
      completed.add(stats);
    }

    @Override
    public void aborted(long checkpointId, String reason) {
      aborted.add(checkpointId + ": " + reason);
    }

    @Override
    public void failed(Throwable reason) {
      failed.complete(reason);
    }
  }

  private static TaskState acked(int stage, long checkpointId) {
    return new TaskState(stage, 0, 1, checkpointId, false, 10, 20, List.of(),
        Map.of("op-" + stage, new OperatorState(5, null, null, "pre-" + stage + "-" + checkpointId)));
  }

  /** A task's ack with keyed state of {@code stateBytes}, {@code uploadedBytes} of it new. */
  private static TaskState withState(int stage, long checkpointId, int parallelism, long alignmentNanos,
      long stateBytes, long uploadedBytes, String timers) {
    io.tributary.state.StateSnapshot keyed = new io.tributary.state.StateSnapshot("heap", checkpointId,
        new io.tributary.state.KeyGroupRange(0, 128), Map.of(), stateBytes, uploadedBytes);
    return new TaskState(stage, 0, parallelism, checkpointId, false, alignmentNanos, 20, List.of(),
        Map.of("op-" + stage, new OperatorState(5, keyed, timers, null)));
  }

  private static TaskState asFinal(TaskState s) {
    return new TaskState(s.stage(), s.subtask(), s.parallelism(), s.lastCheckpoint(), true, s.alignmentNanos(),
        s.syncNanos(), s.splits(), s.operators());
  }

  private static TaskState finalState(int stage, long lastCheckpoint) {
    return new TaskState(stage, 0, 1, lastCheckpoint, true, 0, 0, List.of(),
        Map.of("op-" + stage, new OperatorState(Long.MAX_VALUE, null, null, "final-" + stage)));
  }

  private String checkpointPath(long id) {
    return store.metadataPath(CheckpointMetadata.CHECKPOINT, id);
  }

  private static String timers(long id) {
    return JOB + "/checkpoints/chk-" + id + "/timers/op-0-0";
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT + ": " + what);
      }
      Thread.onSpinWait();
    }
  }
}
