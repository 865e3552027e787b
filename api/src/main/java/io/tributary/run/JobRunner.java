package io.tributary.run;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.StagePlan;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.FencedException;
import io.tributary.worker.job.Failure;
import io.tributary.worker.job.JobFailedException;
import io.tributary.worker.job.JobOptions;
import io.tributary.worker.job.LocalJob;
import io.tributary.worker.task.Checkpointing;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs a job with checkpoints in this process, restarting it after failures (DESIGN §6).
 *
 * <p>Each run of the job takes a new epoch from the {@link CheckpointStore} (which fences the
 * coordinators of earlier runs and numbers the sinks' attempts) and starts from a checkpoint: the
 * one the {@link RestorePolicy} names at first, then the latest one this runner completed. A
 * failure is classified ({@link Failure}); a retryable one restarts the job after the
 * {@link RestartPolicy}'s backoff, a non-retryable one, or too many in a row, ends the run with
 * {@link RunFailedException}. A bounded job ends with a last checkpoint that commits its final
 * output.
 *
 * <pre>
 *   STARTING -> RUNNING -> FINISHED
 *                  |  \--> FAILED (not retryable, or restarts exhausted)
 *                  \-> RESTARTING (backoff) -> STARTING
 * </pre>
 */
public final class JobRunner implements AutoCloseable {
  /** What the runner reports, from its own and the coordinator's threads. */
  public interface Events {
    default void restoring(CheckpointMetadata from) {}

    default void started(LocalJob job, long epoch) {}

    default void completed(CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats stats) {}

    default void aborted(long checkpointId, String reason) {}

    default void restarting(Failure failure, int restart, int maxRestarts, Duration backoff) {}
  }

  /**
   * @param plan the job
   * @param intervalMillis time between checkpoints
   * @param retain completed checkpoints kept
   * @param timeoutMillis a checkpoint not complete after this is aborted
   * @param exactlyOnce aligned barriers (false: at-least-once checkpoints, no input held)
   */
  public record Settings(ExecutionPlan plan, long intervalMillis, int retain, long timeoutMillis,
      RestorePolicy restore, RestartPolicy restarts, boolean exactlyOnce) {
    /** Exactly-once (aligned) checkpoints. */
    public Settings(ExecutionPlan plan, long intervalMillis, int retain, long timeoutMillis, RestorePolicy restore,
        RestartPolicy restarts) {
      this(plan, intervalMillis, retain, timeoutMillis, restore, restarts, true);
    }
  }

  private final Settings settings;
  private final JobOptions options;
  private final CheckpointStore store;
  private final Events events;
  private final ExecutorService uploads;
  private final CountDownLatch cancelled = new CountDownLatch(1);
  private volatile LocalJob job;
  private volatile CheckpointCoordinator coordinator;
  private volatile CheckpointMetadata lastCompleted;
  private volatile int failuresInRow;

  public JobRunner(Settings settings, JobOptions options, CheckpointStore store, Events events) {
    this.settings = settings;
    this.options = options;
    this.store = store;
    this.events = events;
    this.uploads = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "checkpoint-upload");
      t.setDaemon(true);
      return t;
    });
  }

  /** The job of the current run, or null between runs. */
  public LocalJob job() {
    return job;
  }

  /** Takes a savepoint of the running job, triggered by the user. */
  public CompletableFuture<CheckpointMetadata> savepoint() {
    return savepoint("user");
  }

  /**
   * Takes a savepoint of the running job.
   *
   * @param trigger who asks ({@code user}, {@code stop}, {@code rollout}), recorded in its entry
   */
  public CompletableFuture<CheckpointMetadata> savepoint(String trigger) {
    CheckpointCoordinator c = coordinator;
    if (c == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("the job is not running"));
    }
    return c.triggerSavepoint(trigger);
  }

  /**
   * Runs the job until it ends.
   *
   * @return the last checkpoint, which covers the whole output
   * @throws RunFailedException when it failed and cannot (or may no longer) restart
   * @throws CancellationException when {@link #cancel} was called
   */
  public CheckpointMetadata run() throws InterruptedException {
    ExecutionPlan plan = settings.plan();
    CheckpointMetadata restore = initialRestore();
    boolean first = true;
    while (true) {
      if (cancelled.getCount() == 0) {
        throw new CancellationException("cancelled");
      }
      CheckpointStore.Run run = store.beginRun(maxSinkParallelism(plan));
      if (first && settings.restore().mode() == RestorePolicy.Mode.NONE) {
        store.clearLatest(run.epoch());
      }
      first = false;
      if (restore != null) {
        events.restoring(restore);
      }
      Failure failure = runOnce(plan, run, restore);
      if (failure == null) {
        return lastCompleted;
      }
      if (cancelled.getCount() == 0) {
        throw new CancellationException("cancelled");
      }
      int n = ++failuresInRow;
      if (!failure.retryable() || n > settings.restarts().maxRestarts()) {
        throw new RunFailedException(failure, n - 1);
      }
      Duration backoff = settings.restarts().backoff(n);
      events.restarting(failure, n, settings.restarts().maxRestarts(), backoff);
      if (cancelled.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new CancellationException("cancelled");
      }
      if (lastCompleted != null) {
        restore = lastCompleted;
      }
    }
  }

  /** One run of the job; null when it finished, else why it failed. */
  private Failure runOnce(ExecutionPlan plan, CheckpointStore.Run run, CheckpointMetadata restore)
      throws InterruptedException {
    CheckpointCoordinator.Settings cs = new CheckpointCoordinator.Settings(plan.jobName(), plan.maxParallelism(),
        settings.intervalMillis(), settings.timeoutMillis(), settings.retain());
    CheckpointCoordinator c = new CheckpointCoordinator(cs, store, run, options.stateBackends(),
        new CoordinatorEvents());
    LocalJob j = null;
    try {
      Checkpointing checkpointing = new Checkpointing(c, store.objects(), uploads, restore, run.epoch(),
          run.previousMaxSinkParallelism(), settings.exactlyOnce());
      try {
        j = LocalJob.start(plan, options.withCheckpointing(checkpointing));
      } catch (RuntimeException e) {
        return Failure.classify(e);
      }
      job = j;
      coordinator = c;
      if (cancelled.getCount() == 0) {
        j.cancel(); // cancel() came while the job was starting, before it could see the job
      }
      c.start(j);
      events.started(j, run.epoch());
      try {
        j.await();
      } catch (JobFailedException e) {
        return classify(e);
      }
      if (cancelled.getCount() == 0) {
        throw new CancellationException("cancelled");
      }
      try {
        c.finalCheckpoint().get();
        return null;
      } catch (ExecutionException e) {
        return classify(e.getCause());
      }
    } finally {
      coordinator = null;
      job = null;
      c.close();
      if (j != null) {
        j.close();
      }
    }
  }

  private static Failure classify(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof FencedException) {
        return new Failure(Failure.Domain.INTERNAL, false, e.getMessage(), e);
      }
    }
    return Failure.classify(e);
  }

  private CheckpointMetadata initialRestore() {
    RestorePolicy p = settings.restore();
    switch (p.mode()) {
      case NONE:
        return null;
      case PATH:
        return checkRestorable(store.load(store.resolve(p.path())));
      default:
        return store.latest().map(ptr -> checkRestorable(store.load(ptr.path()))).orElse(null);
    }
  }

  private CheckpointMetadata checkRestorable(CheckpointMetadata md) {
    if (!md.job().equals(settings.plan().jobName())) {
      throw new IllegalArgumentException(md.kind() + " " + md.id() + " belongs to job '" + md.job()
          + "', not to '" + settings.plan().jobName() + "'");
    }
    return md;
  }

  static int maxSinkParallelism(ExecutionPlan plan) {
    int max = 0;
    for (StagePlan s : plan.stages()) {
      if (s.operators().stream().anyMatch(o -> o instanceof SinkPlan)) {
        max = Math.max(max, s.parallelism());
      }
    }
    return max;
  }

  /** Stops the job; {@link #run} then throws {@link CancellationException}. Any thread. */
  public void cancel() throws InterruptedException {
    cancelled.countDown();
    LocalJob j = job;
    if (j != null) {
      j.cancel();
    }
  }

  @Override
  public void close() {
    uploads.shutdown();
  }

  private final class CoordinatorEvents implements CheckpointCoordinator.Listener {
    @Override
    public void completed(CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats stats) {
      lastCompleted = metadata;
      failuresInRow = 0;
      events.completed(metadata, stats);
    }

    @Override
    public void aborted(long checkpointId, String reason) {
      events.aborted(checkpointId, reason);
    }

    @Override
    public void failed(Throwable reason) {
      LocalJob j = job;
      if (j != null) {
        try {
          j.cancel();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
