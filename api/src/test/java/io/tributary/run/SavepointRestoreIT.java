package io.tributary.run;

import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.hidden;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.worker.job.Failure;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Savepoints (contracts C7, C9): a job stopped right after a savepoint and restored from its path
 * commits exactly the output of a run without interruption, also at another parallelism; a
 * restore that would move keyed state between different numbers of key groups is refused.
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
    String savepoint = runUntilSavepoint(CheckpointFaultIT.bidsPerAuction(out, "heap", 8000), out, 2);

    String changed = CheckpointFaultIT.bidsPerAuction(out, "heap", 8000) + "maxParallelism: 64\n";
    RunEvents events = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        JobRunner runner = checkpoints.runner(plan(changed, 2), 100, RestorePolicy.parse(savepoint),
            ConnectorFactory.standard(), events)) {
      assertThatThrownBy(runner::run).isInstanceOfSatisfying(RunFailedException.class, e -> {
        assertThat(e.getMessage()).contains("maxParallelism").contains("64").contains("128");
        assertThat(e.failure().retryable()).isFalse();
        assertThat(e.failure().domain()).isEqualTo(Failure.Domain.USER);
      });
    }
    assertThat(events.restarts).as("a user error is not retried").isEmpty();
  }

  /** Stops a job at {@code before} with a savepoint and runs it to the end from there at {@code after}. */
  private void stopAndRestore(int before, int after) throws Exception {
    Path out = tmp.resolve("out");
    String spec = CheckpointFaultIT.bidsPerAuction(out, "heap", 8000);
    List<String> expected = FaultRuns.reference(plan(CheckpointFaultIT.bidsPerAuction(tmp.resolve("reference"),
        "heap", 0), null), tmp.resolve("reference"));

    String savepoint = runUntilSavepoint(spec, out, before);
    List<String> stopped = committed(out);
    assertThat(stopped).as("output of the checkpoints before the savepoint").isNotEmpty();
    assertThat(stopped.size()).as("the job stopped before its end").isLessThan(expected.size());

    RunEvents events = new RunEvents();
    CheckpointMetadata last;
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        JobRunner runner = checkpoints.runner(plan(spec, after), 100, RestorePolicy.parse(savepoint),
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

  /**
   * Runs the job until two checkpoints completed and the first results are committed, takes a
   * savepoint and stops the job as the savepoint completes (before any later checkpoint can commit
   * more output).
   *
   * @return the savepoint's path, as reported when it completed
   */
  private String runUntilSavepoint(String spec, Path out, int parallelism) throws Exception {
    FailingSources sources = new FailingSources(0);
    sources.holdEnds(); // the job runs until it is stopped
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<JobRunner> running = new AtomicReference<>();
    RunEvents events = new RunEvents((n, md) -> {
      if (md.isSavepoint()) {
        try {
          running.get().cancel(); // stop with savepoint
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      } else if (n >= 2 && !committed(out).isEmpty()) {
        started.countDown();
      }
    });
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        JobRunner runner = checkpoints.runner(plan(spec, parallelism), 100, RestorePolicy.NONE, sources, events)) {
      running.set(runner);
      CompletableFuture<Throwable> ended = new CompletableFuture<>();
      Thread thread = new Thread(() -> {
        try {
          runner.run();
          ended.complete(null);
        } catch (Throwable e) {
          ended.complete(e);
        }
      }, "savepointed-run");
      thread.start();
      assertThat(started.await(30, TimeUnit.SECONDS)).as("first results committed; %s", events.timeline()).isTrue();
      CheckpointMetadata savepoint = runner.savepoint().get(30, TimeUnit.SECONDS);
      assertThat(savepoint.isSavepoint()).isTrue();
      assertThat(ended.get(30, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
      thread.join();
      CheckpointCoordinator.CheckpointStats stats = events.stats.stream()
          .filter(s -> s.id() == savepoint.id()).findFirst().orElseThrow();
      assertThat(stats.path()).contains("savepoints/sp-" + savepoint.id());
      return stats.path();
    }
  }
}
