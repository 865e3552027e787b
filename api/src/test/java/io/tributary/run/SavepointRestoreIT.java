package io.tributary.run;

import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.RunFailedException;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.master.JobMaster;
import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.hidden;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.checkpoint.CheckpointCodec;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.state.store.ObjectStore;
import io.tributary.protocol.Failure;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Savepoints (contracts C7, C9): a job stopped right after a savepoint and restored from
 * its path commits exactly the output of a run without interruption, also at another parallelism;
 * a restore that would move keyed state between different numbers of key groups is refused. A
 * savepoint directory is self-contained: copied elsewhere (and the original deleted) it restores
 * exactly, and the checkpoints of a run restored from it do not need it.
 */
class SavepointRestoreIT {
  @TempDir
  Path tmp;

  @Timeout(60)
  @ParameterizedTest(name = "parallelism {0} -> {1}")
  @CsvSource({"2, 2", "2, 3", "3, 1"})
  void aJobStoppedWithASavepointAndRestoredFromItsPathCommitsExactlyTheUninterruptedOutput(int before, int after)
      throws Exception {
    stopAndRestore(before, after);
  }

  @Timeout(60)
  @Test
  void aRestoreWithAnotherMaxParallelismIsRefusedAndNotRetried() throws Exception {
    Path out = tmp.resolve("out");
    String savepoint = SavepointRuns.runUntilSavepoint(tmp, CheckpointFaultIT.bidsPerAuction(out, "heap", 8000), out, 2);

    String changed = CheckpointFaultIT.bidsPerAuction(out, "heap", 8000) + "maxParallelism: 64\n";
    RunEvents events = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(changed, 2), 100, RestorePolicy.parse(savepoint),
            ConnectorFactory.standard(), events)) {
      assertThatThrownBy(runner::run).isInstanceOfSatisfying(RunFailedException.class, e -> {
        assertThat(e.getMessage()).contains("maxParallelism").contains("64").contains("128");
        assertThat(e.failure().retryable()).isFalse();
        assertThat(e.failure().domain()).isEqualTo(Failure.Domain.USER);
      });
    }
    assertThat(events.restarts).as("a user error is not retried").isEmpty();
  }

  @Timeout(90)
  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void aJobWithoutOneOfItsStatefulOperatorsRestoresTheOthersExactlyOnlyWhenItAllowsStateLeftBehind(String backend)
      throws Exception {
    Path out = tmp.resolve("out");
    String kept = CheckpointFaultIT.bidsPerAuction(out, backend, 8000);
    String withBidders = kept.replace("sinks:\n", """
          - id: per-bidder
            input: bids
            keyBy: [bidder]
            window: {type: tumbling, size: 1s}
            aggregate: {bids: "count(*)"}
        sinks:
          by-bidder: {input: per-bidder, type: blackhole}
        """);
    List<String> expected = FaultRuns.reference(plan(CheckpointFaultIT.bidsPerAuction(tmp.resolve("reference"),
        "heap", 0), null), tmp.resolve("reference"));
    String savepoint = SavepointRuns.runUntilSavepoint(tmp, withBidders, out, 2);
    assertThat(committed(out).size()).as("the job stopped before its end").isLessThan(expected.size());

    RunEvents refused = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(kept, 2), 100, RestorePolicy.parse(savepoint),
            ConnectorFactory.standard(), refused)) {
      assertThatThrownBy(runner::run).isInstanceOfSatisfying(RunFailedException.class, e -> {
        assertThat(e.getMessage()).contains("operator 'per-bidder'").contains("state.allowNonRestoredState: true");
        assertThat(e.failure().domain()).isEqualTo(Failure.Domain.USER);
      });
    }
    assertThat(refused.restarts).as("a user error is not retried").isEmpty();

    String allowing = kept.replace("state: {backend: " + backend + "}",
        "state: {backend: " + backend + ", allowNonRestoredState: true}");
    RunEvents events = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(CheckpointDir.settings(plan(allowing, 2), 100,
            RestorePolicy.parse(savepoint)).withAllowNonRestoredState(true), ConnectorFactory.standard(), events)) {
      runner.run();
    }
    assertThat(events.timeline()).contains("leaving behind the state of operator 'per-bidder' in savepoint ")
        .contains("restoring from savepoint");
    List<String> actual = committed(out);
    assertThat(actual).as("per-auction's state and the source's position restored; %s", events.timeline())
        .containsExactlyElementsOf(expected);
    FaultRuns.assertOneResultPerKeyAndWindow(actual, "auction");
  }

  @Timeout(120)
  @ParameterizedTest(name = "{0} state")
  @ValueSource(strings = {"heap", "forst"})
  void aSavepointDirectoryCopiedElsewhereRestoresAloneAndTheCheckpointsAfterItDoNotNeedIt(String backend)
      throws Exception {
    Path out = tmp.resolve("out");
    String spec = CheckpointFaultIT.bidsPerAuction(out, backend, 8000);
    List<String> expected = FaultRuns.reference(plan(CheckpointFaultIT.bidsPerAuction(tmp.resolve("reference"),
        "heap", 0), null), tmp.resolve("reference"));
    String job = plan(spec, 2).jobName();

    String savepoint = SavepointRuns.runUntilSavepoint(tmp, spec, out, 2);
    String dir = savepoint.substring(0, savepoint.lastIndexOf('/'));
    String copy = "elsewhere/" + dir.substring(dir.lastIndexOf('/') + 1);
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"))) {
      CheckpointStore store = checkpoints.store(job);
      ObjectStore objects = store.objects();
      CheckpointMetadata md = store.load(savepoint);
      assertThat(md.objectNames()).as("state of the savepoint").isNotEmpty().allMatch(n -> n.startsWith(dir + "/"));
      assertThat(CheckpointCodec.decode(objects.getBytes(savepoint)).objectNames())
          .as("the metadata names its objects relative to its directory").allMatch(n -> n.startsWith("./"));
      for (String name : objects.list(dir + "/")) {
        if (name.endsWith(".json")) {
          assertThat(new ObjectMapper().readTree(objects.getBytes(name)).findValues("object"))
              .as("files of manifest %s", name).filteredOn(n -> !n.isNull())
              .allMatch(n -> n.asText().startsWith("./"));
        }
        objects.copy(name, copy + name.substring(dir.length()));
      }
      if (backend.equals("forst")) {
        assertThat(objects.list(dir + "/")).as("state files (SSTs, change logs) copied into the savepoint")
            .anyMatch(n -> n.endsWith(".sst") || n.endsWith(".log"));
      }
      assertThat(store.deleteSavepoint(md.id())).isTrue();
      assertThat(objects.list(dir + "/")).as("the savepoint's directory after its deletion").isEmpty();
    }

    // restored from the copy at another parallelism, stopped after two checkpoints
    runUntilCheckpoints(spec, out, 3, RestorePolicy.parse(copy), 2);
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"))) {
      ObjectStore objects = checkpoints.store(job).objects();
      for (String name : objects.list(copy + "/")) {
        objects.delete(name); // the checkpoints after the restore must not need the copy
      }
    }

    RunEvents events = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec, 2), 100, RestorePolicy.LATEST, ConnectorFactory.standard(),
            events)) {
      runner.run();
    }
    assertThat(events.timeline()).contains("restoring from checkpoint");
    List<String> actual = committed(out);
    assertThat(actual).as("committed output; %s", events.timeline()).containsExactlyElementsOf(expected);
    FaultRuns.assertOneResultPerKeyAndWindow(actual, "auction");
  }

  /** Runs the job from {@code restore} until {@code checkpoints} checkpoints completed, then cancels it. */
  private void runUntilCheckpoints(String spec, Path out, int parallelism, RestorePolicy restore, int checkpoints)
      throws Exception {
    FailingSources sources = new FailingSources(0);
    sources.holdEnds(); // the job runs until it is stopped
    AtomicReference<LocalRun> running = new AtomicReference<>();
    RunEvents events = new RunEvents((n, md) -> {
      if (n == checkpoints) {
        running.get().cancel();
      }
    });
    try (CheckpointDir dir = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = dir.runner(plan(spec, parallelism), 100, restore, sources, events)) {
      running.set(runner);
      assertThatThrownBy(runner::run).as(events.timeline()).isInstanceOf(CancellationException.class);
    }
    assertThat(events.timeline()).contains("restoring from savepoint");
    assertThat(events.completed).hasSizeGreaterThanOrEqualTo(checkpoints);
  }

  /** Stops a job at {@code before} with a savepoint and runs it to the end from there at {@code after}. */
  private void stopAndRestore(int before, int after) throws Exception {
    Path out = tmp.resolve("out");
    String spec = CheckpointFaultIT.bidsPerAuction(out, "heap", 8000);
    List<String> expected = FaultRuns.reference(plan(CheckpointFaultIT.bidsPerAuction(tmp.resolve("reference"),
        "heap", 0), null), tmp.resolve("reference"));

    String savepoint = SavepointRuns.runUntilSavepoint(tmp, spec, out, before);
    List<String> stopped = committed(out);
    assertThat(stopped).as("output of the checkpoints before the savepoint").isNotEmpty();
    assertThat(stopped.size()).as("the job stopped before its end").isLessThan(expected.size());

    RunEvents events = new RunEvents();
    CheckpointMetadata last;
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec, after), 100, RestorePolicy.parse(savepoint),
            ConnectorFactory.standard(), events)) {
      last = runner.run();
    }
    assertThat(events.timeline()).contains("restoring from savepoint");
    assertThat(last.tasks()).hasSize(2 * after).allMatch(t -> t.parallelism() == after);
    List<String> actual = committed(out);
    assertThat(actual).as("committed output; %s", events.timeline()).containsExactlyElementsOf(expected);
    FaultRuns.assertOneResultPerKeyAndWindow(actual, "auction");
    assertThat(hidden(out)).isEmpty();
  }
}
