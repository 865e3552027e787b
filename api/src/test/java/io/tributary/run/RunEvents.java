package io.tributary.run;

import io.tributary.scheduler.master.JobMaster;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.protocol.Failure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/** Records what a {@link JobMaster} reports and lets a test act on each completed checkpoint. */
final class RunEvents implements JobMaster.Events {
  final List<CheckpointMetadata> completed = new CopyOnWriteArrayList<>();
  final List<CheckpointCoordinator.CheckpointStats> stats = new CopyOnWriteArrayList<>();
  final List<Failure> restarts = new CopyOnWriteArrayList<>();
  final List<String> aborted = new CopyOnWriteArrayList<>();
  final List<CheckpointMetadata> restoredFrom = new CopyOnWriteArrayList<>();
  private final List<String> timeline = new CopyOnWriteArrayList<>();
  private final long start = System.nanoTime();
  private final BiConsumer<Integer, CheckpointMetadata> onCompleted;

  /** @param onCompleted called with the number of checkpoints completed so far (1, 2, ...) and the last one */
  RunEvents(BiConsumer<Integer, CheckpointMetadata> onCompleted) {
    this.onCompleted = onCompleted;
  }

  RunEvents() {
    this((n, md) -> {});
  }

  @Override
  public void completed(CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats s) {
    completed.add(metadata);
    stats.add(s);
    note(metadata.kind() + " " + metadata.id() + " completed in " + s.durationMillis() + " ms"
        + (metadata.tasks().stream().allMatch(t -> t.finished()) ? " (final)" : ""));
    onCompleted.accept(completed.size(), metadata);
  }

  @Override
  public void aborted(long checkpointId, String reason) {
    aborted.add(checkpointId + ": " + reason);
    note("checkpoint " + checkpointId + " aborted: " + reason);
  }

  @Override
  public void restarting(Failure failure, int restart, int maxRestarts, Duration backoff) {
    restarts.add(failure);
    note("restarting after " + failure.describe());
  }

  @Override
  public void notRestored(CheckpointMetadata from, List<String> operators) {
    note(JobMaster.Events.describeNotRestored(from, operators));
  }

  @Override
  public void restoring(CheckpointMetadata from) {
    restoredFrom.add(from);
    note("restoring from " + from.kind() + " " + from.id());
  }

  @Override
  public void started(io.tributary.protocol.AttemptId attempt, io.tributary.plan.ExecutionPlan plan) {
    note("started run with epoch " + attempt.attempt());
  }

  /** What happened when, for assertion messages. */
  String timeline() {
    return String.join("\n", timeline);
  }

  private void note(String what) {
    timeline.add("+" + java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms " + what);
  }
}
