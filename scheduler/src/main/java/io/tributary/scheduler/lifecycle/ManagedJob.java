package io.tributary.scheduler.lifecycle;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.protocol.Failure;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.WorkerReport;
import io.tributary.scheduler.observe.JobMetricsTracker;
import io.tributary.scheduler.observe.ObservedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One job of a {@link JobManager}: its {@link ObservedState}, its current {@link JobRun}, and the
 * actions that change them. {@link JobActions} runs the actions; this class holds the state and
 * follows what the run reports.
 *
 * <p><b>Threads.</b> Actions on a job run one at a time, under {@link #actions()}, on the caller's
 * thread; they may wait for savepoints and for runs to end, never while holding the job's monitor.
 * The run reports from its own, the runner's and the coordinator's threads; a report changes the
 * state only while the state follows the run ({@link ObservedState#runnerDriven()}) and the run is
 * the current one and not {@linkplain JobRun#detach() detached} by an action that is ending it.
 * Every change of state is persisted ({@link StatusStore}) and recorded as an event, under the
 * monitor, so events are in the order of the changes.
 */
final class ManagedJob implements JobRun.Listener, ObservedJob {
  final String project;
  final String name;
  final String internalName;
  private final JobContext ctx;
  private final ReentrantLock actions = new ReentrantLock();

  // guarded by this
  private ObservedState state = ObservedState.CREATED;
  /** {@link #state} and {@link #failure} as {@link #snapshot} reads them, set under this object's lock. */
  private volatile Snapshot published = new Snapshot(ObservedState.CREATED, null);
  private JobFailure failure;
  private RestorePolicy recovery = RestorePolicy.LATEST;
  private JobRun run;
  private Deployed deployed;
  private volatile java.util.List<TaskPlacement> placement = java.util.List.of();
  /** Where the tasks of the job's latest attempt ran, by task id, kept after it ended: the next run's hint. */
  private java.util.Map<String, String> lastPlacement = java.util.Map.of();
  private AttemptId placedAttempt;
  private String failureHint;
  private boolean checkpointed;
  private boolean retired;
  private volatile boolean takenOver;
  private String specFingerprint;
  private JobSpec spec;

  private long restarts;

  private volatile CheckpointRef lastCompleted;
  /** The parallelism bounds of the spec last deployed. */
  private volatile ParallelismBounds bounds;
  /** The autoscaler settings of the spec last deployed. */
  private volatile io.tributary.scheduler.autoscale.AutoscalerSettings autoscaler =
      io.tributary.scheduler.autoscale.AutoscalerSettings.DEFAULTS;
  /** The stages of the plan last deployed that would run in another's task at 1 (by heads). */
  private volatile java.util.Map<String, String> joinsAtOne = java.util.Map.of();
  /** What is observed of the job across its runs: metrics, output samples. */
  final JobMetricsTracker metrics = new JobMetricsTracker();

  /** What waits outside the running job for its sources (Kafka), as the source watch sees it. */
  final io.tributary.scheduler.observe.SourceBacklogs backlogs = new io.tributary.scheduler.observe.SourceBacklogs();
  /** When the source watch last asked for the running job's backlogs; null: not in this attempt. */
  private volatile Instant backlogAskedAt;
  /** Why asking for the backlogs failed last (logged once per reason); null when it works. */
  private volatile String backlogProblem;

  Instant backlogAskedAt() {
    return backlogAskedAt;
  }

  void backlogAskedAt(Instant t) {
    backlogAskedAt = t;
  }

  String backlogProblem() {
    return backlogProblem;
  }

  void backlogProblem(String p) {
    backlogProblem = p;
  }

  @Override
  public java.util.Map<String, io.tributary.scheduler.observe.SourceBacklogs.Backlog> sourceBacklogs() {
    return backlogs.current();
  }

  /** Not before this may the job go idle again (a failed attempt backs off); null: at any time. */
  private volatile Instant idleNotBefore;
  /**
   * Where each source (by operator id) stood in checkpoint {@code checkpointId}, split id to
   * position: what the source watch compares the external systems' end offsets with.
   */
  record WatchedPositions(long checkpointId, java.util.Map<String, java.util.Map<String, String>> bySource) {}

  /** The positions of the latest checkpoint the source watch read; null until read. */
  private volatile WatchedPositions watchedPositions;
  /** While IDLE: why the watch of its sources failed last, told once per reason; null when it works. */
  private volatile String watchProblem;

  Instant idleNotBefore() {
    return idleNotBefore;
  }

  void idleNotBefore(Instant t) {
    idleNotBefore = t;
  }

  WatchedPositions watchedPositions() {
    return watchedPositions;
  }

  void watchedPositions(WatchedPositions p) {
    watchedPositions = p;
  }

  String watchProblem() {
    return watchProblem;
  }

  void watchProblem(String p) {
    watchProblem = p;
  }

  /** The job's state and failure at one moment. */
  record Snapshot(ObservedState state, JobFailure failure) {}

  ManagedJob(String project, String name, JobContext ctx) {
    this.project = project;
    this.name = name;
    this.internalName = JobNames.internal(project, name);
    this.ctx = ctx;
  }

  /** Held while an action runs on the job. */
  boolean lockActions(Duration wait) throws InterruptedException {
    return actions.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  void unlockActions() {
    actions.unlock();
  }

  /**
   * The job's observed state and failure as last changed. Never waits: a change is published before
   * it is stored, so a read is not held up by a slow metadata store (the API's reads go through here).
   */
  Snapshot snapshot() {
    return published;
  }

  synchronized ObservedState state() {
    return state;
  }

  /** Set while a stop waits for its savepoint: the savepoint's event then says it was the stop's. */
  private volatile boolean stoppingAtSavepoint;

  void stoppingAtSavepoint(boolean on) {
    stoppingAtSavepoint = on;
  }

  /** The last checkpoint or savepoint this process saw the job complete, or null. */
  CheckpointRef lastCompleted() {
    return lastCompleted;
  }

  /** The parsed spec of {@code record}, parsed once per fingerprint. */
  synchronized JobSpec spec(JobRecord record) {
    if (!record.fingerprint().equals(specFingerprint)) {
      spec = io.tributary.scheduler.spec.JobSpecs.parse(record.spec());
      specFingerprint = record.fingerprint();
    }
    return spec;
  }

  /** Whether the job was deleted (or its manager closed): a new object stands for a job of its name. */
  @Override
  public synchronized boolean retired() {
    return retired;
  }

  synchronized void retire() {
    retired = true;
  }

  /**
   * Whether this process has taken the job over as stored (its status restored, its run started
   * again if it should run), or created it: until then neither the API nor the reconcile loop may
   * act on it, or a job that runs elsewhere would be taken for a new one.
   */
  boolean takenOver() {
    return takenOver;
  }

  synchronized void markTakenOver() {
    takenOver = true;
  }

  /** Takes the state the job was persisted in, when the manager opens. */
  synchronized void restoreStatus(StatusStore.Status persisted) {
    state = persisted.observed();
    failure = persisted.failure();
    recovery = persisted.recovery();
    restarts = persisted.restarts();
    published = new Snapshot(state, failure);
  }

  /** The restore a new run uses if the previous one must be started again from scratch. */
  synchronized RestorePolicy recovery() {
    return recovery;
  }

  /**
   * Enters {@code to} without a declared transition: only after a control-plane restart (see
   * {@link ObservedState#afterControlPlaneRestart}).
   */
  synchronized void resetAfterControlPlaneRestart(ObservedState to, String why) {
    ObservedState from = state;
    if (from == to) {
      return;
    }
    state = to;
    // the event first: whoever sees the new state (a client polling the job) then finds why in the events
    ctx.events.append(project, name, JobEvent.Type.STATE_CHANGED, from, to, why);
    persist();
  }

  // ---- changes made by actions (JobActions), under the actions lock

  /** Moves to {@code to}; the caller holds the actions lock. */
  synchronized void move(ObservedState to, String why) {
    moveTo(to, why);
  }

  /**
   * Starts a new run of {@code record} from {@code restore}, moving to DEPLOYING.
   *
   * @param hint added to the failure if the run fails before it completes a checkpoint
   */
  void deploy(JobRecord record, JobSpec jobSpec, RestorePolicy restore, String why, String hint) {
    deploy(record, jobSpec, restore, why, hint, false);
  }

  /**
   * As {@link #deploy(JobRecord, JobSpec, RestorePolicy, String, String)}; with {@code reattach},
   * the run first looks for the attempt the workers still run for the control plane before this one,
   * and follows it if they do (a take-over).
   */
  void deploy(JobRecord record, JobSpec jobSpec, RestorePolicy restore, String why, String hint, boolean reattach) {
    bounds = new ParallelismBounds(jobSpec.parallelism().min(), jobSpec.parallelism().max());
    autoscaler = jobSpec.autoscalerSettings();
    ExecutionPlan plan;
    try {
      plan = ctx.plan(jobSpec, record);
    } catch (RuntimeException e) {
      synchronized (this) {
        moveTo(ObservedState.DEPLOYING, why);
        failure = new JobFailure(Failure.Domain.USER, false, "user error (not retryable): cannot plan the job: "
            + e.getMessage());
        moveTo(ObservedState.FAILED, failure.message());
      }
      return;
    }
    joinsAtOne = io.tributary.scheduler.planner.Planner.joinsAtOne(plan, head -> {
      java.util.Map<String, Integer> stages = new java.util.HashMap<>(record.stageParallelism());
      stages.put(head, 1);
      return ctx.plan(jobSpec, record.parallelism(), stages, record.project(), record.internalName());
    });
    JobRun next;
    synchronized (this) {
      if (retired) {
        return;
      }
      java.util.Map<String, String> previous = lastPlacement;
      next = new JobRun(plan, restore, (p, r, events) -> ctx.runner(jobSpec, p, r, events, reattach, previous), this);
      run = next;
      deployed = new Deployed(record.fingerprint(), record.parallelism(), record.stageParallelism());
      checkpointed = false;
      failureHint = hint;
      recovery = restore;
      failure = null;
      moveTo(ObservedState.DEPLOYING, why);
    }
    next.start();
  }

  /** The current run, or null. */
  synchronized JobRun run() {
    return run;
  }

  /** What a run was deployed from: the record's spec fingerprint and parallelism overrides. */
  record Deployed(String fingerprint, Integer parallelism, java.util.Map<String, Integer> stages) {}

  /**
   * Whether the current run (if any) runs what {@code record} asks for: its spec and parallelism.
   * True without a run.
   */
  synchronized boolean runs(JobRecord record) {
    return run == null || deployed == null || (deployed.fingerprint().equals(record.fingerprint())
        && java.util.Objects.equals(deployed.parallelism(), record.parallelism())
        && deployed.stages().equals(record.stageParallelism()));
  }

  @Override
  public String project() {
    return project;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public synchronized String stateName() {
    return state.name();
  }

  @Override
  public JobMetricsTracker metrics() {
    return metrics;
  }

  @Override
  public ParallelismBounds parallelismBounds() {
    return bounds;
  }

  @Override
  public java.util.OptionalInt slotLimit() {
    return ctx.storage.pool().slotLimit();
  }

  @Override
  public io.tributary.scheduler.autoscale.AutoscalerSettings autoscalerSettings() {
    return autoscaler;
  }

  @Override
  public java.util.Map<String, String> joinsAtOne() {
    return joinsAtOne;
  }

  /** Automatic restarts of the job's runs after failures, since the job was created. */
  @Override
  public synchronized long restarts() {
    return restarts;
  }

  /**
   * Takes the current run from the state machine, so that what it reports from now on changes
   * nothing, and moves to {@code to}: the action ends the run itself. If the run has ended by itself
   * just before (the job is FINISHED or FAILED), the state stays.
   */
  synchronized JobRun detach(ObservedState to, String why) {
    JobRun r = run;
    if (r != null) {
      r.detach();
    }
    if (state.active() && to != state) {
      moveTo(to, why);
    }
    return r;
  }

  /** Forgets {@code ended} as the current run. */
  synchronized void ended(JobRun ended) {
    if (run == ended) {
      run = null;
    }
  }

  /** Records {@code f} and moves to FAILED. */
  synchronized void fail(JobFailure f) {
    failure = f;
    moveTo(ObservedState.FAILED, f.message());
  }

  /**
   * Records {@code f} and enters FAILED without a declared transition: only when the control plane
   * starts again and cannot take a job over (its stored spec is no longer valid).
   */
  synchronized void failAfterControlPlaneRestart(JobFailure f) {
    ObservedState from = state;
    state = ObservedState.FAILED;
    failure = f;
    persist();
    ctx.events.append(project, name, JobEvent.Type.STATE_CHANGED, from, state, f.message());
  }

  /**
   * Ends the current run without touching the state, when the manager closes or stops leading: its
   * attempt goes on where the worker pool can keep it running, for the next control plane to take
   * over (see {@link JobRun#letGo}), and is cancelled elsewhere.
   */
  void shutdown(Duration timeout) throws InterruptedException {
    JobRun r;
    synchronized (this) {
      retired = true;
      r = run;
      if (r != null) {
        r.detach();
      }
    }
    if (r != null) {
      r.letGo();
      try {
        r.awaitEnd(timeout);
      } catch (TimeoutException e) {
        // the process is going away; its epoch is fenced by the next run anyway
      }
    }
  }

  // ---- what the run reports

  @Override
  public void deploying(JobRun r, AttemptId attempt, io.tributary.plan.ExecutionPlan plan) {
    metrics.attemptStarted(attempt, plan);
    backlogs.clear();
    backlogAskedAt = null;
  }

  @Override
  public void started(JobRun r, AttemptId attempt, io.tributary.plan.ExecutionPlan plan) {
    synchronized (this) {
      if (follows(r) && (state == ObservedState.DEPLOYING || state == ObservedState.RECOVERING)) {
        java.util.Set<String> workers = new java.util.TreeSet<>();
        placement.forEach(t -> workers.add(t.worker()));
        moveTo(ObservedState.RUNNING, "run started (epoch " + attempt.attempt() + ") at parallelism "
            + plan.stages().stream().mapToInt(s -> s.parallelism()).max().orElse(0)
            + (workers.isEmpty() || workers.equals(java.util.Set.of("in-process")) ? ""
                : " on " + String.join(", ", workers)));
      }
    }
  }

  @Override
  public void observed(JobRun r, WorkerReport report) {
    metrics.report(report);
  }

  @Override
  public void placed(JobRun r, io.tributary.protocol.AttemptDeployment deployment) {
    java.util.List<TaskPlacement> tasks = new java.util.ArrayList<>();
    for (io.tributary.protocol.TaskDeployment t : deployment.tasks()) {
      tasks.add(new TaskPlacement(t.stageId(), t.subtask(), deployment.plan().stage(t.stageId()).name(), t.worker()));
    }
    synchronized (this) {
      if (r == run) {
        placement = java.util.List.copyOf(tasks);
        placedAttempt = deployment.attempt();
        java.util.Map<String, String> where = new java.util.HashMap<>();
        deployment.tasks().forEach(t -> where.put(t.taskId(), t.worker()));
        lastPlacement = java.util.Map.copyOf(where);
      }
    }
  }

  @Override
  public void reattached(JobRun r, io.tributary.protocol.AttemptDeployment deployment, CheckpointMetadata after) {
    synchronized (this) {
      if (follows(r) && (state == ObservedState.DEPLOYING || state == ObservedState.RECOVERING)) {
        java.util.Set<String> workers = new java.util.TreeSet<>();
        deployment.tasks().forEach(t -> workers.add(t.worker()));
        moveTo(ObservedState.RUNNING, "took over its running attempt (epoch " + deployment.attempt().attempt()
            + ") on " + String.join(", ", workers) + " without a restart; checkpoints go on after "
            + (after == null ? "none" : after.kind() + " " + after.id()));
      }
    }
  }

  @Override
  public void attemptEnded(JobRun r, AttemptId attempt) {
    metrics.attemptEnded(attempt);
    synchronized (this) {
      if (attempt.equals(placedAttempt)) {
        placement = java.util.List.of();
        placedAttempt = null;
      }
    }
  }

  /** Where the tasks of the current attempt run; empty when none is deployed. */
  java.util.List<TaskPlacement> placement() {
    return placement;
  }

  @Override
  public synchronized void restarting(JobRun r, Failure f, int restart, int maxRestarts, Duration backoff) {
    if (!follows(r)) {
      return;
    }
    String why = f.describe() + "; restart " + restart + " of " + maxRestarts + " from the latest checkpoint in "
        + backoff.toMillis() + " ms";
    restarts++;
    if (state == ObservedState.RECOVERING) {
      persist();
      ctx.events.append(project, name, JobEvent.Type.RUN_FAILED, null, null, why);
    } else {
      moveTo(ObservedState.RECOVERING, why);
    }
  }

  @Override
  public void restoring(JobRun r, CheckpointMetadata from) {
    if (!r.detached()) {
      ctx.events.append(project, name, JobEvent.Type.RESTORING, null, null,
          "restoring from " + from.kind() + " " + from.id() + " (" + JobContext.pathOf(from) + ")");
    }
  }

  @Override
  public void waitingForSlots(JobRun r, String why) {
    if (!r.detached()) {
      ctx.events.append(project, name, JobEvent.Type.WAITING, null, null, why);
    }
  }

  @Override
  public void notRestored(JobRun r, CheckpointMetadata from, java.util.List<String> operators) {
    if (!r.detached()) {
      ctx.events.append(project, name, JobEvent.Type.RESTORING, null, null,
          io.tributary.scheduler.master.JobMaster.Events.describeNotRestored(from, operators));
    }
  }

  /** Aborted checkpoints in a row not yet told as an event, and when the last such event was. */
  private final Object aborts = new Object();
  private int abortsUntold;
  private long lastAbortEventNanos;
  private boolean abortToldSinceCompletion;
  /** While checkpoints keep failing, one event per this many nanoseconds at most. */
  static final long ABORT_EVENT_INTERVAL_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(1);

  @Override
  public void aborted(JobRun r, long checkpointId, String reason) {
    if (r.detached()) {
      return;
    }
    String message;
    synchronized (aborts) {
      long now = System.nanoTime();
      if (abortToldSinceCompletion && now - lastAbortEventNanos < ABORT_EVENT_INTERVAL_NANOS) {
        abortsUntold++;
        return;
      }
      message = "checkpoint " + checkpointId + " failed: " + reason
          + (abortsUntold > 0 ? " (" + abortsUntold + " more failed since the last such event)" : "");
      abortsUntold = 0;
      lastAbortEventNanos = now;
      abortToldSinceCompletion = true;
    }
    ctx.events.append(project, name, JobEvent.Type.CHECKPOINT_FAILED, null, null, message);
  }

  @Override
  public void completed(JobRun r, CheckpointMetadata md, CheckpointCoordinator.CheckpointStats stats) {
    metrics.checkpointCompleted(stats);
    synchronized (aborts) {
      abortToldSinceCompletion = false;
      abortsUntold = 0;
    }
    String path = stats.path();
    CheckpointStore.Summary summary = stats.summary();
    lastCompleted = new CheckpointRef(md.id(), md.kind(), JobContext.shortPath(path), Instant.ofEpochMilli(
        summary != null && summary.completedAtMillis() != null ? summary.completedAtMillis() : md.createdAtMillis()),
        summary);
    if (md.isSavepoint()) {
      ObservedState s = state();
      String trigger = stoppingAtSavepoint || s == ObservedState.STOPPING ? "stop"
          : s == ObservedState.RESCALING || s == ObservedState.UPDATING ? "rollout" : "user";
      ctx.events.append(project, name, JobEvent.Type.SAVEPOINT, null, null,
          "savepoint " + md.id() + " completed (" + trigger + "): " + JobContext.pathOf(md));
    }
    synchronized (this) {
      if (r == run && !checkpointed) {
        checkpointed = true;
        recovery = RestorePolicy.LATEST;
        persist();
      }
    }
  }

  @Override
  public synchronized void ended(JobRun r, JobRun.Outcome outcome) {
    if (!follows(r) || outcome.end() == JobRun.End.CANCELLED) {
      return;
    }
    run = null;
    if (outcome.end() == JobRun.End.FINISHED) {
      moveTo(ObservedState.FINISHED, "input ended; output committed"
          + (outcome.last() != null ? " with checkpoint " + outcome.last().id() : ""));
    } else {
      JobFailure f = outcome.failure();
      failure = failureHint != null && !checkpointed
          ? new JobFailure(f.domain(), f.retryable(), f.message() + "; " + failureHint) : f;
      moveTo(ObservedState.FAILED, failure.message());
    }
  }

  /** Whether what {@code r} reports changes the state. */
  private boolean follows(JobRun r) {
    return r == run && !r.detached() && state.runnerDriven();
  }

  private void moveTo(ObservedState to, String why) {
    ObservedState from = state;
    state = from.checkMoveTo(to);
    if (to != ObservedState.FAILED) {
      failure = null;
    }
    // the event first: whoever sees the new state (a client polling the job) then finds why in the events
    ctx.events.append(project, name, JobEvent.Type.STATE_CHANGED, from, to, why);
    persist();
  }

  private void persist() {
    published = new Snapshot(state, failure);
    if (!retired) {
      try {
        ctx.statuses.put(project, name, new StatusStore.Status(state, failure, recovery, restarts,
            state.active() ? placement : java.util.List.of()));
      } catch (io.tributary.scheduler.metadata.FencedException | io.tributary.scheduler.metadata.LeaseLostException e) {
        // this replica lost the lead: its successor decides the job's status, and this one steps down
        System.getLogger(ManagedJob.class.getName()).log(System.Logger.Level.WARNING,
            "job {0}/{1}: status {2} not stored: {3}", project, name, state, e.getMessage());
      }
    }
  }
}
