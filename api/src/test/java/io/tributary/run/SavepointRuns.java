package io.tributary.run;

import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.LocalRun;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.scheduler.master.RestorePolicy;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Jobs stopped with a savepoint, for the savepoint tests. */
final class SavepointRuns {
  private SavepointRuns() {}

  /**
   * Runs the job (checkpoint storage under {@code tmp}) until two checkpoints completed and the
   * first results are committed to the file sink at {@code out}, takes a
   * savepoint and stops the job as the savepoint completes (before any later checkpoint can commit
   * more output).
   *
   * @return the savepoint's path, as reported when it completed
   */
  static String runUntilSavepoint(Path tmp, String spec, Path out, int parallelism) throws Exception {
    FailingSources sources = new FailingSources(0);
    sources.holdEnds(); // the job runs until it is stopped
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<LocalRun> running = new AtomicReference<>();
    RunEvents events = new RunEvents((n, md) -> {
      if (md.isSavepoint()) {
        running.get().cancel(); // stop with savepoint
      } else if (n >= 2 && !committed(out).isEmpty()) {
        started.countDown();
      }
    });
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec, parallelism), 100, RestorePolicy.NONE, sources, events)) {
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
      CheckpointMetadata savepoint;
      try {
        // longer than the coordinator's warning about a checkpoint not complete after 30 s, which
        // names the tasks that acknowledged it
        savepoint = runner.savepoint("user").get(40, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError("the savepoint did not complete within 40 s; " + events.timeline() + "\n"
            + taskStacks(), e);
      }
      assertThat(savepoint.isSavepoint()).isTrue();
      assertThat(ended.get(30, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
      thread.join();
      CheckpointCoordinator.CheckpointStats stats = events.stats.stream()
          .filter(s -> s.id() == savepoint.id()).findFirst().orElseThrow();
      assertThat(stats.path()).contains("savepoints/sp-" + savepoint.id());
      return stats.path();
    }
  }

  /** What the tasks' threads and the checkpoint threads are doing: for a savepoint that hangs. */
  private static String taskStacks() {
    StringBuilder b = new StringBuilder();
    Thread.getAllStackTraces().forEach((t, frames) -> {
      if (t.getName().startsWith("task ") || t.getName().startsWith("checkpoint")) {
        b.append(t.getName()).append(' ').append(t.getState()).append('\n');
        for (int i = 0; i < Math.min(frames.length, 12); i++) {
          b.append("    at ").append(frames[i]).append('\n');
        }
      }
    });
    return b.toString();
  }
}
