package io.tributary.worker.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connectors.ConnectorPolicy;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.RunningAttempt;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.state.KeyGroupRange;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker outlives its control plane: two pools (two control-plane replicas, over real gRPC in one
 * JVM) and one worker given both addresses. The attempt it runs for the first goes on, untouched, when
 * the first lets go of it and the second takes it over; an attempt nobody takes over is released.
 */
@Timeout(90)
class ReattachTest {
  private static final String SECRET = "reattach-test-secret";
  private static final AttemptId ATTEMPT = new AttemptId("job", 1);

  @TempDir
  Path tmp;

  private final AtomicBoolean aLeads = new AtomicBoolean(true);
  private RemoteWorkerPool a;
  private RemoteWorkerPool b;
  private WorkerProcess worker;

  @BeforeEach
  void start() throws InterruptedException {
    String storage = tmp.resolve("objects").toString();
    a = new RemoteWorkerPool(RemoteWorkerPool.Settings.of(SECRET, storage).withAccepting(aLeads::get)
        .withMetricsInterval(Duration.ofMillis(100)));
    b = new RemoteWorkerPool(RemoteWorkerPool.Settings.of(SECRET, storage).withAccepting(() -> !aLeads.get())
        .withMetricsInterval(Duration.ofMillis(100)).withOrphanGrace(Duration.ofSeconds(2)));
    worker = WorkerProcess.start(new WorkerProcess.Config("127.0.0.1:" + a.port() + ",127.0.0.1:" + b.port(), "w1", 2,
        tmp.resolve("cache"), "127.0.0.1", "127.0.0.1", 0, SECRET, ConnectorFactory::standard, Duration.ofSeconds(30)));
    await("the worker joins a", () -> a.workers().size() == 1);
  }

  @AfterEach
  void stop() {
    worker.close();
    a.close();
    b.close();
  }

  @Test
  void theAttemptGoesOnWhenAnotherControlPlaneTakesItOver() throws Exception {
    Collected fromA = new Collected();
    a.acquire(ATTEMPT, 1);
    a.deploy(deployment(), fromA);
    await("records flow under a", () -> fromA.recordsOut() > 0);
    a.triggerCheckpoint(ATTEMPT, 7);
    await("checkpoint 7 is acknowledged to a", () -> fromA.acked(7));

    a.detach(ATTEMPT); // a stops leading: it lets go of the attempt without stopping it
    aLeads.set(false);
    long before = fromA.recordsOut();
    Optional<RunningAttempt> found = b.running(ATTEMPT.job(), Duration.ofSeconds(30));

    assertThat(found).as("b finds the attempt the worker still runs").isPresent();
    assertThat(found.get().attempt()).isEqualTo(ATTEMPT);
    assertThat(found.get().lastCheckpointId()).as("the last checkpoint its sources were told to take").isEqualTo(7);
    assertThat(b.workers()).singleElement().satisfies(w -> assertThat(w.freeSlots()).as("its slot stays taken")
        .isEqualTo(1));
    Collected fromB = new Collected();
    b.adopt(ATTEMPT, fromB);
    await("records flow under b", () -> fromB.recordsOut() > before);
    b.triggerCheckpoint(ATTEMPT, 8);
    await("checkpoint 8 is acknowledged to b", () -> fromB.acked(8));
    assertThat(fromB.reports).as("the task was never restarted").noneMatch(r -> r instanceof WorkerReport.TaskEnded);
    assertThat(fromA.reports).as("a heard nothing once it let go")
        .noneMatch(r -> r instanceof WorkerReport.CheckpointAck ack && ack.checkpointId() == 8);
  }

  @Test
  void anAttemptNobodyTakesOverIsReleasedAfterTheOrphanGrace() throws Exception {
    Collected fromA = new Collected();
    a.acquire(ATTEMPT, 1);
    a.deploy(deployment(), fromA);
    await("the worker runs the attempt", () -> fromA.recordsOut() > 0); // a deployment still in flight is not running
    a.detach(ATTEMPT);
    aLeads.set(false);
    await("the worker joins b, its slot taken by the attempt it still runs",
        () -> b.workers().size() == 1 && b.workers().get(0).freeSlots() == 1);

    await("b has the worker release it after the orphan grace", () -> b.workers().size() == 1
        && b.workers().get(0).freeSlots() == 2);
    assertThat(b.running(ATTEMPT.job(), Duration.ZERO)).isEmpty();
  }

  @Test
  void aNewAttemptOfTheJobEndsTheOneTheWorkerStillRuns() throws Exception {
    Collected fromA = new Collected();
    a.acquire(ATTEMPT, 1);
    a.deploy(deployment(), fromA);
    await("the worker runs the attempt", () -> fromA.recordsOut() > 0); // a deployment still in flight is not running
    a.detach(ATTEMPT);
    aLeads.set(false);
    assertThat(b.running(ATTEMPT.job(), Duration.ofSeconds(30))).isPresent();

    AttemptId next = new AttemptId(ATTEMPT.job(), 2);
    b.acquire(next, 2);

    assertThat(b.running(ATTEMPT.job(), Duration.ZERO)).as("released for the new attempt").isEmpty();
    assertThat(b.workers().get(0).freeSlots()).as("the new attempt has both slots").isZero();
  }

  /** A datagen source chained to a blackhole sink, one subtask on {@code w1}. */
  private static AttemptDeployment deployment() {
    return deployment(ATTEMPT, "w1");
  }

  /** A datagen source chained to a blackhole sink, one subtask of {@code attempt} on {@code worker}. */
  static AttemptDeployment deployment(AttemptId attempt, String worker) {
    SourcePlan source = new SourcePlan("gen", "datagen", "json", null, 2000, null,
        Map.of("count", 10_000_000L, "keys", 10L));
    ExecutionPlan plan = new ExecutionPlan(attempt.job(), 128, "heap", List.of(
        new StagePlan(0, "gen -> out", 1, List.of(source, new SinkPlan("out", "blackhole", "json", Map.of())),
            List.of(new io.tributary.plan.ChainLink("gen", null, "out")))),
        List.of());
    List<String> splits = ConnectorFactory.standard(ConnectorPolicy.unrestricted()).source(source).splits(1).stream()
        .map(s -> s.id()).toList();
    return new AttemptDeployment(attempt, plan, new AttemptDeployment.CheckpointSettings(true), List.of(),
        List.of(new TaskDeployment(0, 0, worker, new KeyGroupRange(0, 127), splits, null)));
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(20); // polling a condition with a deadline
    }
  }

  /** The reports a pool hands on. */
  private static final class Collected implements WorkerReports {
    final List<WorkerReport> reports = new CopyOnWriteArrayList<>();

    @Override
    public void report(WorkerReport r) {
      reports.add(r);
    }

    long recordsOut() {
      return reports.stream().filter(r -> r instanceof WorkerReport.Metrics).map(r -> (WorkerReport.Metrics) r)
          .flatMap(m -> m.tasks().stream()).mapToLong(t -> t.recordsOut()).max().orElse(0);
    }

    boolean acked(long checkpointId) {
      return reports.stream().anyMatch(r -> r instanceof WorkerReport.CheckpointAck ack
          && ack.checkpointId() == checkpointId);
    }
  }
}
