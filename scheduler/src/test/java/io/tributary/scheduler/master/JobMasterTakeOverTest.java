package io.tributary.scheduler.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.RunningAttempt;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.protocol.WorkerSlots;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.metadata.FencedWrites;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.store.InMemoryObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link JobMaster} whose pool's workers still run an attempt of the job for an earlier control
 * plane: it follows that attempt instead of restarting it when it may, and starts anew when it may
 * not; detached, it leaves the attempt running.
 */
@Timeout(60)
class JobMasterTakeOverTest {
  private static final String JOB = "orders";

  @TempDir
  Path dir;

  private EmbeddedMetadataStore metadata;
  private CheckpointStore store;

  @BeforeEach
  void open() {
    metadata = new EmbeddedMetadataStore(dir);
    store = new CheckpointStore(JOB, new InMemoryObjectStore(), metadata);
  }

  @AfterEach
  void close() {
    metadata.close();
  }

  /**
   * The earlier control plane began attempt 1, recorded checkpoint 3 and had told the sources to take
   * checkpoint 5 when it died: the new master follows attempt 1 without deploying anything, commits
   * checkpoint 3 again (its commit may not have happened), numbers its checkpoints from 6, and fences
   * the earlier coordinator; detached, it leaves the attempt running.
   */
  @Test
  void theRunningAttemptGoesOnUnderItsNumberAndCheckpointsAfterTheLastOneItsSourcesTook() throws Exception {
    store.beginRun(1);
    recordCheckpoint(3, 1);
    TakeOverPool pool = new TakeOverPool(new RunningAttempt(deployment(1, MasterFixtures.plan(JOB, 1)), 5));
    List<String> events = new CopyOnWriteArrayList<>();
    JobMaster master = master(pool, MasterFixtures.plan(JOB, 1), events);
    CompletableFuture<CheckpointMetadata> run = runInBackground(master);

    await("a checkpoint completes under the new master", () -> store.latest().map(p -> p.id() >= 6).orElse(false));
    assertThat(pool.acquired).as("nothing was deployed").isEmpty();
    assertThat(pool.adopted).containsExactly(new AttemptId(JOB, 1));
    assertThat(pool.commits.get(0)).as("the latest checkpoint is committed again first").isEqualTo(3L);
    assertThat(pool.triggers.get(0)).as("barrier ids only grow").isEqualTo(6L);
    assertThat(pool.triggerList).allSatisfy(t -> assertThat(t.attempt()).isEqualTo(1L));
    assertThat(FencedWrites.read(metadata, "jobs/" + JOB + "/latest").orElseThrow().epoch())
        .as("the pointer is fenced past the earlier coordinator's epoch").isEqualTo(2L);
    assertThat(events).containsExactly("reattached after 3").doesNotContain("restoring");

    master.detach();
    assertThatThrownBy(() -> run.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
    assertThat(pool.detached).as("left running for the next control plane").containsExactly(new AttemptId(JOB, 1));
    assertThat(pool.released).isEmpty();
    assertThat(pool.cancelled).isEmpty();
  }

  /** A run of the job began after the attempt the workers still run: it is released, the job starts anew. */
  @Test
  void aRunningAttemptOfAnOlderRunIsReleasedAndTheJobRestartsFromItsLatestCheckpoint() throws Exception {
    store.beginRun(1);
    recordCheckpoint(3, 1);
    store.beginRun(1); // attempt 2 began (and died before it took a checkpoint)
    TakeOverPool pool = new TakeOverPool(new RunningAttempt(deployment(1, MasterFixtures.plan(JOB, 1)), 5));
    List<String> events = new CopyOnWriteArrayList<>();

    CheckpointMetadata last = master(pool, MasterFixtures.plan(JOB, 1), events).run();

    assertThat(pool.released).as("the stale attempt, then the new one as it finished")
        .containsExactly(new AttemptId(JOB, 1), new AttemptId(JOB, 3));
    assertThat(pool.adopted).isEmpty();
    assertThat(pool.acquired).containsExactly(new AttemptId(JOB, 3));
    assertThat(pool.deployed.get(0).tasks().get(0).restore().checkpointId()).isEqualTo(3L);
    assertThat(events).containsExactly("restoring 3");
    assertThat(last.id()).isGreaterThan(3L);
  }

  /** The job's plan changed (another parallelism): the attempt is released and the job starts anew. */
  @Test
  void aRunningAttemptOfAnotherPlanIsReleased() throws Exception {
    store.beginRun(1);
    recordCheckpoint(3, 1);
    TakeOverPool pool = new TakeOverPool(new RunningAttempt(deployment(1, MasterFixtures.plan(JOB, 1)), 3));

    master(pool, MasterFixtures.plan(JOB, 2), new CopyOnWriteArrayList<>()).run();

    assertThat(pool.released).containsExactly(new AttemptId(JOB, 1), new AttemptId(JOB, 2));
    assertThat(pool.acquired).containsExactly(new AttemptId(JOB, 2));
    assertThat(pool.adopted).isEmpty();
  }

  private JobMaster master(WorkerPool pool, ExecutionPlan plan, List<String> events) {
    return new JobMaster(new JobMaster.Settings(plan, 20, 3, 10_000, RestorePolicy.LATEST,
        new RestartPolicy(3, Duration.ZERO, Duration.ZERO)).withReattachWait(Duration.ofSeconds(1)),
        new JobMaster.Services(pool, MasterFixtures.noSplits(), Map.of()), store, new JobMaster.Events() {
          @Override
          public void restoring(CheckpointMetadata from) {
            events.add("restoring " + from.id());
          }

          @Override
          public void reattached(AttemptDeployment deployment, CheckpointMetadata after) {
            events.add("reattached after " + (after == null ? "none" : after.id()));
          }
        });
  }

  /** Checkpoint {@code id} of attempt {@code epoch} as its coordinator records it. */
  private void recordCheckpoint(long id, long epoch) {
    CheckpointMetadata md = new CheckpointMetadata(JOB, id, CheckpointMetadata.CHECKPOINT, epoch, 128,
        System.currentTimeMillis(), List.of(TakeOverPool.state(id, false)));
    String path = store.writeMetadata(md);
    store.advance(epoch, md, path, store.latestVersion());
    store.addRetained(md, path);
  }

  private static CompletableFuture<CheckpointMetadata> runInBackground(JobMaster master) {
    CompletableFuture<CheckpointMetadata> f = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        f.complete(master.run());
      } catch (Throwable e) {
        f.completeExceptionally(e);
      }
    }, "master");
    t.setDaemon(true);
    t.start();
    return f;
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(10); // polling a condition with a deadline
    }
  }


  private static AttemptDeployment deployment(long attempt, ExecutionPlan plan) {
    return new AttemptDeployment(new AttemptId(JOB, attempt), plan, new AttemptDeployment.CheckpointSettings(true),
        List.of(), List.of(new TaskDeployment(0, 0, "w", new KeyGroupRange(0, 127), List.of(), null)));
  }


  /**
   * One worker that still runs {@code running}. Every attempt acknowledges each checkpoint; an
   * attempt this pool deploys finishes at once.
   */
  private static final class TakeOverPool implements WorkerPool {
    record Trigger(long attempt, long id) {}

    final RunningAttempt running;
    final List<AttemptId> acquired = new CopyOnWriteArrayList<>();
    final List<AttemptDeployment> deployed = new CopyOnWriteArrayList<>();
    final List<AttemptId> adopted = new CopyOnWriteArrayList<>();
    final List<AttemptId> released = new CopyOnWriteArrayList<>();
    final List<AttemptId> detached = new CopyOnWriteArrayList<>();
    final List<AttemptId> cancelled = new CopyOnWriteArrayList<>();
    final List<Long> commits = new CopyOnWriteArrayList<>();
    final List<Trigger> triggerList = new CopyOnWriteArrayList<>();
    final List<Long> triggers = new CopyOnWriteArrayList<>();
    private volatile WorkerReports reports;

    TakeOverPool(RunningAttempt running) {
      this.running = running;
    }

    @Override
    public Optional<RunningAttempt> running(String job, Duration timeout) {
      return Optional.ofNullable(running).filter(r -> r.attempt().job().equals(job));
    }

    @Override
    public void adopt(AttemptId attempt, WorkerReports reports) {
      this.reports = reports;
      adopted.add(attempt);
    }

    @Override
    public List<WorkerSlots> acquire(AttemptId attempt, int slots) {
      acquired.add(attempt);
      return List.of(new WorkerSlots("w", slots));
    }

    @Override
    public void deploy(AttemptDeployment deployment, WorkerReports reports) {
      this.reports = reports;
      deployed.add(deployment);
      AttemptId a = deployment.attempt();
      for (TaskDeployment t : deployment.tasks()) {
        TaskState s = state(Long.MAX_VALUE, true);
        reports.report(new WorkerReport.FinalState(a, new TaskState(t.stageId(), t.subtask(), s.parallelism(),
            s.lastCheckpoint(), true, 0, 0, List.of(), s.operators())));
        reports.report(new WorkerReport.TaskEnded(a, t.taskId(), "src", WorkerReport.TaskEnded.Outcome.FINISHED, null));
      }
    }

    @Override
    public void triggerCheckpoint(AttemptId attempt, long checkpointId) {
      triggers.add(checkpointId);
      triggerList.add(new Trigger(attempt.attempt(), checkpointId));
      reports.report(new WorkerReport.CheckpointAck(attempt, checkpointId, state(checkpointId, false)));
    }

    @Override
    public void notifyCheckpointComplete(AttemptId attempt, CheckpointMetadata checkpoint) {
      commits.add(checkpoint.id());
    }

    @Override
    public void cancel(AttemptId attempt) {
      cancelled.add(attempt);
      reports.report(new WorkerReport.TaskEnded(attempt, "0/0", "src (1/1)", WorkerReport.TaskEnded.Outcome.CANCELLED,
          null));
    }

    @Override
    public void release(AttemptId attempt) {
      released.add(attempt);
    }

    @Override
    public void detach(AttemptId attempt) {
      detached.add(attempt);
    }

    @Override
    public void close() {}

    static TaskState state(long checkpointId, boolean finished) {
      return new TaskState(0, 0, 1, checkpointId, finished, 0, 0, List.of(), Map.of(
          "src", new OperatorState(5, null, null, null),
          "out", new OperatorState(5, null, null, "transaction-of-" + checkpointId)));
    }
  }
}
