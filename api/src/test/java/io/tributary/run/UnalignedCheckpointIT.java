package io.tributary.run;

import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.hidden;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.LocalRun;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.InFlightState;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.connect.SinkConnector;
import io.tributary.connectors.SlowSink;
import io.tributary.connect.SourceConnector;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.protocol.Failure;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.stream.Record;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once output through failures with unaligned checkpoints (contract C3): under heavy
 * backpressure (a sink that takes 50 µs a record) barriers overtake the buffered records, which are
 * logged into the checkpoints; a job that fails after such a checkpoint, restored from it at the
 * same or at another parallelism, commits exactly the output of a run without failures.
 */
class UnalignedCheckpointIT {
  private static final long COUNT = 20_000;

  @TempDir
  Path tmp;

  /** A keyed pass-through of numbered records: each {@code (k, seq)} once in the output. */
  private static String spec(Path out) {
    return """
        name: unaligned
        parallelism: 2
        sources:
          numbers: {type: datagen, count: %d}
        operators:
          - {id: numbered, input: numbers, select: {k: "id %% 13", seq: "id / 13"}}
          - {id: by-key, input: numbered, keyBy: [k]}
        sinks:
          out: {input: by-key, type: file, path: "%s"}
        """.formatted(COUNT, out);
  }

  @Timeout(120)
  @Test
  void aJobThatFailsAfterAnUnalignedCheckpointWithRecordsInFlightCommitsTheOutputOfARunWithoutFailures()
      throws Exception {
    List<String> expected = FaultRuns.reference(plan(spec(tmp.resolve("reference")), null), tmp.resolve("reference"));
    Path out = tmp.resolve("out");
    FailingSources sources = new FailingSources(1);
    RunEvents events = failingAtInFlight(sources);

    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = runner(checkpoints, plan(spec(out), null), 3, RestorePolicy.NONE, sources, events)) {
      runner.run();
    }

    assertThat(sources.failures()).as("the source failed once; %s", events.timeline()).isEqualTo(1);
    assertThat(events.restarts).extracting(Failure::retryable).containsExactly(true);
    assertThat(events.restoredFrom).hasSize(1);
    assertThat(inFlightRecords(events.restoredFrom.get(0)))
        .as("the checkpoint restored from held records in flight; %s", events.timeline()).isPositive();
    CheckpointMetadata restored = events.restoredFrom.get(0);
    io.tributary.scheduler.checkpoint.CheckpointStore.Summary figures = events.stats.stream()
        .filter(s -> s.id() == restored.id()).findFirst().orElseThrow().summary();
    assertThat(figures.inFlightRecords()).as("its figures").isEqualTo(inFlightRecords(restored));
    assertThat(figures.inFlightBytes()).isPositive().isLessThan(figures.uploadedBytes());
    assertThat(committed(out)).as("committed output").containsExactlyElementsOf(expected);
    assertThat(hidden(out)).isEmpty();
  }

  /**
   * A fast and a slow source into one keyed stage: a barrier from the slow source arrives at once, one
   * from the fast source waits behind its backlog, so alignments take longer than the 5 ms timeout
   * and checkpoints turn unaligned at the keyed tasks, logging the fast channels until their barriers.
   */
  @Timeout(120)
  @Test
  void checkpointsWhoseAlignmentTimesOutTurnUnalignedAndKeepTheOutputExact() throws Exception {
    String spec = """
        name: unaligned-timeout
        parallelism: 2
        sources:
          fast: {type: datagen, count: %d}
          slow: {type: datagen, count: 400, maxRecordsPerSecond: 200}
        operators:
          - {id: both, union: [fast, slow], select: {k: "id %% 13", seq: "id / 13"}}
          - {id: by-key, input: both, keyBy: [k]}
        sinks:
          out: {input: by-key, type: file, path: "%s"}
        """;
    Path reference = tmp.resolve("reference");
    List<String> expected = FaultRuns.reference(plan(spec.formatted(COUNT, reference), null), reference);
    Path out = tmp.resolve("out");
    FailingSources sources = new FailingSources(1);
    RunEvents events = failingAtInFlight(sources);

    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = runner(checkpoints, plan(spec.formatted(COUNT, out), null), 3, RestorePolicy.NONE, sources,
            events, 5)) {
      runner.run();
    }

    assertThat(sources.failures()).as(events.timeline()).isEqualTo(1);
    assertThat(events.restoredFrom).hasSize(1);
    assertThat(inFlightRecords(events.restoredFrom.get(0))).as(events.timeline()).isPositive();
    assertThat(events.stats.stream().mapToLong(s -> s.maxAlignmentNanos()).max().orElse(0))
        .as("the checkpoints aligned first").isGreaterThan(TimeUnit.MILLISECONDS.toNanos(5));
    assertThat(committed(out)).as("committed output").containsExactlyElementsOf(expected);
    assertThat(hidden(out)).isEmpty();
  }

  @Timeout(120)
  @Test
  void anUnalignedCheckpointTakenAtParallelismTwoRestoresAtThree() throws Exception {
    List<String> expected = FaultRuns.reference(plan(spec(tmp.resolve("reference")), null), tmp.resolve("reference"));
    Path out = tmp.resolve("out");
    FailingSources sources = new FailingSources(1);
    RunEvents events = failingAtInFlight(sources);

    // the first run gives up at its failure: its last checkpoint holds records in flight
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = runner(checkpoints, plan(spec(out), 2), 0, RestorePolicy.NONE, sources, events)) {
      try {
        runner.run();
      } catch (RuntimeException e) {
        // the job failed: expected
      }
    }
    assertThat(sources.failures()).as(events.timeline()).isEqualTo(1);
    CheckpointMetadata last = events.completed.get(events.completed.size() - 1);
    assertThat(last.tasks()).extracting(TaskState::parallelism).contains(2);
    assertThat(inFlightRecords(last)).as("records in flight at p=2; %s", events.timeline()).isPositive();

    RunEvents resumed = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = runner(checkpoints, plan(spec(out), 3), 0, RestorePolicy.LATEST, sources, resumed)) {
      runner.run();
    }
    assertThat(resumed.restoredFrom).extracting(CheckpointMetadata::id).containsExactly(last.id());
    assertThat(committed(out)).as("committed output; %s", resumed.timeline()).containsExactlyElementsOf(expected);
    assertThat(hidden(out)).isEmpty();
  }

  /**
   * A savepoint taken under backpressure holds records in flight, copied into its directory; the job
   * stopped with it and resumed from it at parallelism 3 commits the failure-free output.
   */
  @Timeout(120)
  @Test
  void aSavepointWithRecordsInFlightIsSelfContainedAndRestoresAtAnotherParallelism() throws Exception {
    List<String> expected = FaultRuns.reference(plan(spec(tmp.resolve("reference")), null), tmp.resolve("reference"));
    Path out = tmp.resolve("out");
    FailingSources sources = new FailingSources(0);
    sources.holdEnds(); // the job runs until it is stopped
    java.util.concurrent.atomic.AtomicReference<LocalRun> running = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.CountDownLatch backpressured = new java.util.concurrent.CountDownLatch(1);
    RunEvents events = new RunEvents((n, md) -> {
      if (md.isSavepoint() && inFlightRecords(md) > 0) {
        running.get().cancel(); // stop with this savepoint, before a later checkpoint commits more
      } else if (inFlightRecords(md) > 0) {
        backpressured.countDown();
      }
    });
    String path = null;
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = runner(checkpoints, plan(spec(out), 2), 0, RestorePolicy.NONE, sources, events)) {
      running.set(runner);
      java.util.concurrent.CompletableFuture<Throwable> ended = new java.util.concurrent.CompletableFuture<>();
      Thread thread = new Thread(() -> {
        try {
          runner.run();
          ended.complete(null);
        } catch (Throwable e) {
          ended.complete(e);
        }
      }, "unaligned-savepoint-run");
      thread.start();
      assertThat(backpressured.await(60, TimeUnit.SECONDS)).as(events.timeline()).isTrue();
      for (int i = 0; i < 10 && path == null; i++) {
        CheckpointMetadata savepoint = runner.savepoint("user").get(30, TimeUnit.SECONDS);
        if (inFlightRecords(savepoint) > 0) {
          path = events.stats.stream().filter(s -> s.id() == savepoint.id()).findFirst().orElseThrow().path();
        }
      }
      assertThat(path).as("a savepoint with records in flight; %s", events.timeline()).isNotNull();
      assertThat(ended.get(30, TimeUnit.SECONDS)).isInstanceOf(java.util.concurrent.CancellationException.class);
      thread.join();
    }
    CheckpointMetadata savepoint = events.completed.get(events.completed.size() - 1);
    assertThat(savepoint.isSavepoint()).isTrue();
    assertThat(inFlightRecords(savepoint)).isPositive();
    String dir = path.substring(0, path.lastIndexOf('/'));
    for (TaskState t : savepoint.tasks()) {
      for (OperatorState o : t.operators().values()) {
        if (o.inFlight() != null) {
          assertThat(o.inFlight().object()).as("copied into the savepoint").startsWith(dir + "/in-flight/");
        }
      }
    }

    sources.releaseEnds();
    RunEvents resumed = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = runner(checkpoints, plan(spec(out), 3), 0, RestorePolicy.parse(path), sources, resumed)) {
      runner.run();
    }
    assertThat(resumed.restoredFrom).extracting(CheckpointMetadata::id).containsExactly(savepoint.id());
    assertThat(committed(out)).as("committed output; %s", resumed.timeline()).containsExactlyElementsOf(expected);
    assertThat(hidden(out)).isEmpty();
  }

  private static LocalRun runner(CheckpointDir checkpoints, ExecutionPlan plan, int restarts, RestorePolicy restore,
      FailingSources sources, JobMaster.Events events) {
    return runner(checkpoints, plan, restarts, restore, sources, events, 0);
  }

  /** @param alignmentTimeoutMillis checkpoints align this long first (0: unaligned from the start) */
  private static LocalRun runner(CheckpointDir checkpoints, ExecutionPlan plan, int restarts, RestorePolicy restore,
      FailingSources sources, JobMaster.Events events, long alignmentTimeoutMillis) {
    JobMaster.Settings settings = new JobMaster.Settings(plan, 100, 3, 0, restore,
        new RestartPolicy(restarts, Duration.ofMillis(10), Duration.ofMillis(100)))
        .withUnaligned(alignmentTimeoutMillis);
    return LocalRun.create(settings, InProcessWorkerPool.Options.of(checkpoints.backends())
        .withConnectors(new SlowSinks(sources)).withCredits(2), checkpoints.store(plan.jobName()), events);
  }

  private static long inFlightRecords(CheckpointMetadata md) {
    long n = 0;
    for (TaskState t : md.tasks()) {
      for (OperatorState o : t.operators().values()) {
        InFlightState f = o.inFlight();
        n += f == null ? 0 : f.records();
      }
    }
    return n;
  }

  /** Events of a run that arms the source failure at its first checkpoint holding records in flight. */
  private static RunEvents failingAtInFlight(FailingSources sources) {
    java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
    return new RunEvents((n, md) -> {
      if (inFlightRecords(md) > 0 && armed.compareAndSet(false, true)) {
        sources.arm();
      }
    });
  }

  /** The connectors of {@code sources}, each sink record taking 50 µs: the job is backpressured. */
  private record SlowSinks(ConnectorFactory sources) implements ConnectorFactory {
    @Override
    public SourceConnector source(SourcePlan plan) {
      return sources.source(plan);
    }

    @Override
    public SinkConnector sink(SinkPlan plan) {
      return new SlowSink(sources.sink(plan), 50);
    }
  }
}
