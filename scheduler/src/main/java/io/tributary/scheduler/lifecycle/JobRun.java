package io.tributary.scheduler.lifecycle;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.master.RunFailedException;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.Failure;
import io.tributary.protocol.WorkerReport;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One run of a managed job: a {@link JobMaster} (attempts on the worker pool, checkpoints, restarts
 * after failures) on its own thread, from a start to its end. The run reports to its {@link
 * Listener} from the master's, the checkpoint coordinator's, the workers' and its own thread.
 */
final class JobRun {
  /** How a run ended. */
  enum End { FINISHED, FAILED, CANCELLED }

  /**
   * @param last for FINISHED: the checkpoint that committed the last output
   * @param failure for FAILED: why, whose fault, and what to do
   */
  record Outcome(End end, CheckpointMetadata last, JobFailure failure) {}

  /** What a run reports. */
  interface Listener {
    void started(JobRun run, AttemptId attempt, ExecutionPlan plan);

    /** An attempt is about to be deployed; its reports may come before {@link #started}. */
    default void deploying(JobRun run, AttemptId attempt, ExecutionPlan plan) {}

    /** Where the tasks of the run's new attempt run. */
    void placed(JobRun run, io.tributary.protocol.AttemptDeployment deployment);

    /**
     * The run took over the attempt that workers still ran for the control plane before this one,
     * going on after checkpoint {@code after} (null: none), after {@link #placed}; {@link #started} follows.
     */
    default void reattached(JobRun run, io.tributary.protocol.AttemptDeployment deployment,
        CheckpointMetadata after) {}

    /** A worker's metrics or output report of the run's current attempt. */
    void observed(JobRun run, WorkerReport report);

    /** An attempt is over; its workers report no more. */
    void attemptEnded(JobRun run, AttemptId attempt);

    void restarting(JobRun run, Failure failure, int restart, int maxRestarts, Duration backoff);

    void restoring(JobRun run, CheckpointMetadata from);

    /** An attempt of the run waits for its slots; {@code why} says how many the pool has free. */
    default void waitingForSlots(JobRun run, String why) {}

    /** The run's restore from {@code from} leaves the state of {@code operators} behind. */
    default void notRestored(JobRun run, CheckpointMetadata from, java.util.List<String> operators) {}

    void completed(JobRun run, CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats stats);

    /** A checkpoint or savepoint of the run was aborted. Coordinator thread. */
    default void aborted(JobRun run, long checkpointId, String reason) {}

    /** Called on the run's thread before {@link #awaitEnd} returns. */
    void ended(JobRun run, Outcome outcome);
  }

  private final ExecutionPlan plan;
  private final RestorePolicy restore;
  private final JobMaster runner;
  private final Listener listener;
  private final AtomicBoolean cancelAtSavepoint = new AtomicBoolean();
  private final AtomicBoolean cancelAtCheckpoint = new AtomicBoolean();
  private final CompletableFuture<Outcome> ended = new CompletableFuture<>();
  private volatile boolean detached;
  private volatile boolean cancelRequested;

  private volatile boolean letGoRequested;

  JobRun(ExecutionPlan plan, RestorePolicy restore, JobRunnerFactory runners, Listener listener) {
    this.plan = plan;
    this.restore = restore;
    this.listener = listener;
    this.runner = runners.create(plan, restore, new RunnerEvents());
  }

  /** Creates the runner of a run. */
  interface JobRunnerFactory {
    JobMaster create(ExecutionPlan plan, RestorePolicy restore, JobMaster.Events events);
  }

  ExecutionPlan plan() {
    return plan;
  }

  /** The attempt that runs now, or null (starting, restarting, or ended). */
  AttemptId attempt() {
    return runner.attempt();
  }

  /** What the run started from. */
  RestorePolicy restore() {
    return restore;
  }

  void start() {
    Thread t = new Thread(this::runToEnd, "job " + plan.jobName());
    t.setDaemon(true);
    t.start();
  }

  /**
   * Whether an action took the run over to end it: what it reports then no longer changes the job's
   * state. Set under the job's lock.
   */
  boolean detached() {
    return detached;
  }

  void detach() {
    detached = true;
  }

  /** Takes a savepoint the user asked for; the run goes on. */
  CompletableFuture<CheckpointMetadata> savepoint() {
    return runner.savepoint(Triggers.USER);
  }

  /** Who took a savepoint, as its entry records it (the API's savepoint {@code trigger}). */
  static final class Triggers {
    static final String USER = "user";
    static final String STOP = "stop";
    static final String ROLLOUT = "rollout";

    private Triggers() {}
  }

  /**
   * Takes a savepoint (recording {@code trigger} in its entry) and cancels the run as it completes (on the coordinator's thread, before a
   * later checkpoint can commit more output), so that the savepoint is where the run stopped.
   *
   * @return the savepoint, or null if it failed or did not complete within {@code timeout}: then the
   *     run goes on
   * @throws SavepointFailed with the reason, when null would be returned and the caller wants it
   */
  CheckpointMetadata savepointThenCancel(Duration timeout, String trigger) throws InterruptedException,
      SavepointFailed {
    cancelAtSavepoint.set(true);
    CompletableFuture<CheckpointMetadata> savepoint = runner.savepoint(trigger);
    try {
      return savepoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      if (cancelAtSavepoint.compareAndSet(true, false)) {
        String why = e instanceof TimeoutException ? "not complete after " + timeout.toMillis() + " ms"
            : String.valueOf(e.getCause().getMessage());
        throw new SavepointFailed(why, e instanceof TimeoutException ? e : e.getCause());
      }
      // it completed just now and the run is cancelled: its future completes right after
      try {
        return savepoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException again) {
        throw new SavepointFailed(String.valueOf(again.getMessage()), again);
      }
    }
  }

  /**
   * Takes a checkpoint and cancels the run as the first checkpoint completes (on the coordinator's
   * thread, once its output is committed), so that the latest checkpoint is where the run stopped.
   *
   * @throws SavepointFailed with the reason when no checkpoint completed within {@code timeout}:
   *     then the run goes on
   */
  CheckpointMetadata checkpointThenCancel(Duration timeout) throws InterruptedException, SavepointFailed {
    return checkpointThenCancel(timeout, false);
  }

  /**
   * Like {@link #checkpointThenCancel(Duration)}; with {@code stopSources} the sources read nothing
   * after the checkpoint's barrier, so the tasks end with exactly the checkpoint's state and a
   * worker can hand a task's open state to the next run's task of the same key groups (a rescale).
   * The caller should cancel the run if this throws: its sources may wait for up to a minute.
   */
  CheckpointMetadata checkpointThenCancel(Duration timeout, boolean stopSources)
      throws InterruptedException, SavepointFailed {
    cancelAtCheckpoint.set(true);
    long deadline = System.nanoTime() + timeout.toNanos();
    String why = "no checkpoint completed within " + timeout.toMillis() + " ms";
    while (System.nanoTime() < deadline) {
      CompletableFuture<CheckpointMetadata> cp = runner.checkpoint(stopSources);
      try {
        return cp.get(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        why = String.valueOf(e.getCause().getMessage());
        if (!cancelAtCheckpoint.get()) {
          break; // one completed meanwhile and cancelled the run
        }
        Thread.sleep(100); // pacing between attempts: the previous checkpoint was aborted
      } catch (TimeoutException e) {
        break;
      }
    }
    if (cancelAtCheckpoint.compareAndSet(true, false)) {
      throw new SavepointFailed(why, null);
    }
    return null; // a checkpoint completed just now and cancelled the run
  }

  /**
   * Ends the run without ending its attempt, where the worker pool can keep it running for the next
   * control plane to take over (see {@link JobMaster#detach}); {@link #awaitEnd} then reports
   * CANCELLED.
   */
  void letGo() {
    letGoRequested = true;
    runner.detach();
  }

  /** Cancels the run; {@link #awaitEnd} then reports CANCELLED (or how it ended before). */
  void cancel() {
    cancelRequested = true;
    runner.cancel();
  }

  /**
   * Waits for the end of the run.
   *
   * @throws TimeoutException if it did not end within {@code timeout}
   */
  Outcome awaitEnd(Duration timeout) throws InterruptedException, TimeoutException {
    try {
      return ended.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a run's end is never exceptional", e);
    }
  }

  boolean isEnded() {
    return ended.isDone();
  }

  private void runToEnd() {
    Outcome outcome;
    try {
      outcome = new Outcome(End.FINISHED, runner.run(), null);
    } catch (CancellationException | InterruptedException e) {
      outcome = new Outcome(End.CANCELLED, null, null);
    } catch (RunFailedException e) {
      outcome = new Outcome(End.FAILED, null, JobFailure.of(e.failure(), e.getMessage()));
    } catch (RuntimeException | Error e) {
      Failure f = io.tributary.scheduler.master.Failures.classify(e);
      outcome = new Outcome(End.FAILED, null, JobFailure.of(f, f.describe()));
    }
    try {
      listener.ended(this, outcome);
    } finally {
      ended.complete(outcome);
    }
  }

  /** A savepoint that failed or timed out; the run goes on. */
  static final class SavepointFailed extends Exception {
    private static final long serialVersionUID = 1L;

    SavepointFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final class RunnerEvents implements JobMaster.Events {
    @Override
    public void restoring(CheckpointMetadata from) {
      listener.restoring(JobRun.this, from);
    }

    @Override
    public void waitingForSlots(AttemptId attempt, String why) {
      listener.waitingForSlots(JobRun.this, why);
    }

    @Override
    public void notRestored(CheckpointMetadata from, java.util.List<String> operators) {
      listener.notRestored(JobRun.this, from, operators);
    }

    @Override
    public void started(AttemptId attempt, ExecutionPlan plan) {
      if (letGoRequested) {
        runner.detach(); // as cancel() below, for an attempt published only now
        return;
      }
      if (cancelRequested) {
        // cancel() misses an attempt that is deploying (it cancels only the attempt it has already
        // published): cancel again now that it is published
        runner.cancel();
        return;
      }
      listener.started(JobRun.this, attempt, plan);
    }

    @Override
    public void deploying(AttemptId attempt, ExecutionPlan plan) {
      listener.deploying(JobRun.this, attempt, plan);
    }

    @Override
    public void observed(WorkerReport report) {
      listener.observed(JobRun.this, report);
    }

    @Override
    public void placed(io.tributary.protocol.AttemptDeployment deployment) {
      listener.placed(JobRun.this, deployment);
    }

    @Override
    public void reattached(io.tributary.protocol.AttemptDeployment deployment, CheckpointMetadata after) {
      listener.reattached(JobRun.this, deployment, after);
    }

    @Override
    public void attemptEnded(AttemptId attempt) {
      listener.attemptEnded(JobRun.this, attempt);
    }

    @Override
    public void completed(CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats stats) {
      if (metadata.isSavepoint() && cancelAtSavepoint.compareAndSet(true, false)) {
        cancel();
      } else if (!metadata.isSavepoint() && cancelAtCheckpoint.compareAndSet(true, false)) {
        cancel();
      }
      listener.completed(JobRun.this, metadata, stats);
    }

    @Override
    public void aborted(long checkpointId, String reason) {
      listener.aborted(JobRun.this, checkpointId, reason);
    }

    @Override
    public void restarting(Failure failure, int restart, int maxRestarts, Duration backoff) {
      listener.restarting(JobRun.this, failure, restart, maxRestarts, backoff);
    }
  }
}
