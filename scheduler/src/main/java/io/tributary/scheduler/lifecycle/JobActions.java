package io.tributary.scheduler.lifecycle;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.protocol.Failure;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The actions on one job, run under its actions lock: each reads the job's state once, refuses
 * what the state does not allow ({@link StateConflictException}), writes the job's record, ends the
 * current run if it must, and deploys the next one. The record is written before a run is replaced
 * (the reconciler's rule: desired state first), except for a stop with a savepoint, which writes it
 * once the savepoint is taken, because a failed savepoint leaves the job running as it was.
 */
final class JobActions {
  private final JobContext ctx;

  /**
   * How a run ended for an action.
   *
   * @param savepoint the savepoint it stopped at, or null
   * @param savepointFailure why there is none although one was asked for, or null
   */
  private record Ending(CheckpointMetadata savepoint, String savepointFailure) {}

  JobActions(JobContext ctx) {
    this.ctx = ctx;
  }

  /** A new job: deployed without state. */
  void create(ManagedJob job, JobRecord record, JobSpec spec) {
    job.deploy(record, spec, RestorePolicy.NONE, "deploying spec generation 1 without state", null);
  }

  /**
   * A changed spec is stored in {@code record}. A job that runs rolls it out: savepoint, stop, start
   * from the savepoint (from the latest checkpoint if it is not RUNNING or the savepoint fails). A
   * FAILED job that should run starts the new spec from its latest checkpoint. A stopped or
   * finished job runs it on its next start.
   */
  void specChanged(ManagedJob job, JobRecord record, JobSpec spec) throws InterruptedException {
    ObservedState s = job.state();
    String what = "spec generation " + record.generation();
    if (s.active()) {
      boolean savepoint = s == ObservedState.RUNNING;
      Ending e = endRun(job, ObservedState.UPDATING, "rolling out " + what
          + (savepoint ? " by savepoint and redeploy" : " from the latest checkpoint, the job being " + s), savepoint);
      redeploy(job, record, spec, e, what, "apply the previous spec again");
    } else if (s == ObservedState.FAILED && record.desired() == DesiredState.RUNNING) {
      job.deploy(record, spec, RestorePolicy.LATEST, what + " applied to the failed job: starting it from its latest "
          + "checkpoint", null);
    }
  }

  /**
   * Stops the job: with a savepoint (RUNNING only; if it fails the job keeps running) or without.
   * Stopping a stopped job without a savepoint changes nothing.
   *
   * @return the job's record, desired STOPPED, restoring the savepoint (or the latest checkpoint) next
   */
  JobRecord stop(ManagedJob job, JobRecord record, boolean savepoint) throws InterruptedException {
    ObservedState s = job.state();
    if (savepoint) {
      return stopWithSavepoint(job, record, s);
    }
    if (s == ObservedState.STOPPED) {
      return record;
    }
    JobRecord next = ctx.save(record.withDesired(DesiredState.STOPPED, RestorePolicy.LATEST, ctx.now()));
    if (s.active()) {
      endRun(job, ObservedState.STOPPING, "stop requested", false);
      job.move(ObservedState.STOPPED, "stopped; a resume restores the latest checkpoint");
    } else {
      job.move(ObservedState.STOPPED, "stop requested");
    }
    return next;
  }

  private JobRecord stopWithSavepoint(ManagedJob job, JobRecord record, ObservedState s)
      throws InterruptedException {
    if (s != ObservedState.RUNNING) {
      throw new StateConflictException(s, "job '" + job.name + "' is " + s + ": a savepoint needs a RUNNING job"
          + (s.runnerDriven() ? "; retry when it runs, or stop it without a savepoint" : ""), s.runnerDriven());
    }
    JobRun r = job.run();
    CheckpointMetadata sp;
    job.stoppingAtSavepoint(true);
    try {
      sp = r.savepointThenCancel(ctx.actionTimeout(), JobRun.Triggers.STOP);
    } catch (JobRun.SavepointFailed e) {
      throw new OperationFailedException("the savepoint to stop job '" + job.name + "' at failed (" + e.getMessage()
          + "); the job keeps running", Failure.Domain.INTERNAL, true, e);
    } finally {
      job.stoppingAtSavepoint(false);
    }
    String path = JobContext.pathOf(sp);
    job.detach(ObservedState.STOPPING, "savepoint " + sp.id() + " taken; stopping");
    awaitEnd(job, r);
    JobRecord next = ctx.save(record.withDesired(DesiredState.STOPPED, new RestorePolicy(RestorePolicy.Mode.PATH,
        path), ctx.now()));
    job.move(ObservedState.STOPPED, "stopped at savepoint " + sp.id() + " (" + path + "); a resume restores it");
    return next;
  }

  /**
   * Starts a job that is not running, from {@code policy} (null: the record's restore policy).
   *
   * @throws StateConflictException if the job runs
   * @throws InvalidRequestException naming {@code restore} if the path names no checkpoint or
   *     savepoint of this job, or its state cannot be restored into the job's spec
   */
  JobRecord resume(ManagedJob job, JobRecord record, JobSpec spec, RestorePolicy policy) {
    ObservedState s = job.state();
    if (s.active()) {
      throw new StateConflictException(s, "job '" + job.name + "' is " + s + ", not stopped; restart it to start it "
          + "again from its latest checkpoint", false);
    }
    // an idle job stopped at its latest checkpoint, whatever it had started from
    RestorePolicy p = policy != null ? policy : s == ObservedState.IDLE ? RestorePolicy.LATEST : record.restore();
    ctx.checkResumable(job.internalName, p, spec.state().allowsNonRestoredState(), () -> ctx.plan(spec, record));
    JobRecord next = ctx.save(record.withDesired(DesiredState.RUNNING, p, ctx.now()));
    job.deploy(next, spec, p, "resumed " + describe(p), null);
    return next;
  }

  /**
   * Sets the job's parallelism to {@code n}; a job that runs is rescaled (contract C7): a checkpoint
   * (incremental: only what changed since the last one is uploaded, nothing is copied), the run ends
   * as it completes, and the job starts at {@code n} from it, the key groups and splits divided anew
   * and the state files opened where they are (from the latest checkpoint if it is not RUNNING or
   * the checkpoint does not complete). A job at rest runs at {@code n} on its next start. {@code
   * rescaled} is {@code record} with the new parallelism of the job and its stages.
   */
  JobRecord rescale(ManagedJob job, JobRecord record, JobSpec spec, JobRecord rescaled) throws InterruptedException {
    String from = describeParallelism(record, spec);
    String to = describeParallelism(rescaled, spec);
    JobRecord next = ctx.save(rescaled);
    ObservedState s = job.state();
    if (s.active()) {
      String why = "rescaling from parallelism " + from + " to " + to;
      String at;
      if (s == ObservedState.RUNNING) {
        JobRun r = job.detach(ObservedState.RESCALING, why);
        at = r == null ? "the latest checkpoint" : checkpointThenEnd(job, r);
      } else {
        endRun(job, ObservedState.RESCALING, why, false);
        at = "the latest checkpoint";
      }
      job.deploy(next, spec, RestorePolicy.LATEST, "parallelism " + to + " from " + at,
          "the state from before the rescale is kept in the latest checkpoint: rescale back to " + from
              + " to continue from it, or resume with restore none to start without state");
    }
    return next;
  }

  /**
   * Ends {@code r} at a checkpoint: cancelled as one completes (its output committed), else, if none
   * completes in time, cancelled anyway; then waits for its end.
   *
   * @return what the next run starts from: {@code checkpoint 42}, or the latest checkpoint and why
   */
  private String checkpointThenEnd(ManagedJob job, JobRun r) throws InterruptedException {
    String at;
    try {
      CheckpointMetadata cp = r.checkpointThenCancel(ctx.actionTimeout(), true);
      at = cp != null ? "checkpoint " + cp.id() : "the latest checkpoint";
    } catch (JobRun.SavepointFailed e) {
      at = "the latest checkpoint (the checkpoint to rescale at did not complete: " + e.getMessage() + ")";
    }
    r.cancel();
    awaitEnd(job, r);
    return at;
  }

  /** {@code 2}, or with stages of their own {@code 2 (per-auction 4, bids 1)}. */
  static String describeParallelism(JobRecord record, JobSpec spec) {
    int p = record.parallelism() != null ? record.parallelism() : spec.parallelism().initial();
    if (record.stageParallelism().isEmpty()) {
      return String.valueOf(p);
    }
    return p + " (" + record.stageParallelism().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(java.util.stream.Collectors.joining(", ")) + ")";
  }

  /** Ends the run without a savepoint, if there is one, and starts the job from its latest checkpoint. */
  JobRecord restart(ManagedJob job, JobRecord record, JobSpec spec) throws InterruptedException {
    JobRecord next = record;
    if (record.desired() != DesiredState.RUNNING || !record.restore().equals(RestorePolicy.LATEST)) {
      next = ctx.save(record.withDesired(DesiredState.RUNNING, RestorePolicy.LATEST, ctx.now()));
    }
    if (job.state().active()) {
      endRun(job, ObservedState.RECOVERING, "restart requested", false);
    }
    job.deploy(next, spec, RestorePolicy.LATEST, "restarting from the latest checkpoint", null);
    return next;
  }

  /**
   * Takes a savepoint of a RUNNING job; it keeps running.
   *
   * @throws StateConflictException if the job is not RUNNING
   * @throws OperationFailedException if the savepoint fails or times out
   */
  CheckpointRef savepoint(ManagedJob job) throws InterruptedException {
    ObservedState s = job.state();
    JobRun r = job.run();
    if (s != ObservedState.RUNNING || r == null) {
      throw new StateConflictException(s, "job '" + job.name + "' is " + s + ": a savepoint needs a RUNNING job",
          s.runnerDriven());
    }
    try {
      CheckpointMetadata md = r.savepoint().get(ctx.actionTimeout().toMillis(), TimeUnit.MILLISECONDS);
      CheckpointStore store = ctx.checkpoints(job.internalName);
      return store.savepoints().stream().filter(e -> e.id() == md.id()).findFirst()
          .map(e -> JobViews.ref(store, e))
          .orElseGet(() -> new CheckpointRef(md.id(), md.kind(), JobContext.pathOf(md),
              Instant.ofEpochMilli(md.createdAtMillis())));
    } catch (ExecutionException | TimeoutException e) {
      String why = e instanceof TimeoutException ? "not complete after " + ctx.actionTimeout().toMillis() + " ms"
          : e.getCause().getMessage();
      throw new OperationFailedException("the savepoint of job '" + job.name + "' failed: " + why,
          Failure.Domain.INTERNAL, true, e);
    }
  }

  /** Ends the run of a job that is being deleted. */
  void delete(ManagedJob job) throws InterruptedException {
    if (job.state().active()) {
      endRun(job, ObservedState.STOPPING, "job deleted", false);
    }
    job.retire();
  }

  /**
   * Takes over a stored job when the control plane starts: a job that should run and was active
   * resumes from its latest checkpoint (from what its last run started from, if that run completed
   * no checkpoint); one that should run and was STOPPED (a resume that the previous process did not
   * carry out) starts from its record's restore policy; the others keep their state.
   */
  void recover(ManagedJob job, JobRecord record, JobSpec spec, Optional<StatusStore.Status> persisted) {
    persisted.ifPresent(job::restoreStatus);
    resume(job, record, spec);
  }

  /**
   * Takes over a job whose stored status was restored into {@code job} and which has no run in this
   * process (see {@link #recover}). The job counts as taken over once its new state is stored,
   * before a run is deployed.
   */
  private void resume(ManagedJob job, JobRecord record, JobSpec spec) {
    ObservedState before = job.state();
    ObservedState after = before.afterControlPlaneRestart(record.desired());
    RestorePolicy from = before == ObservedState.CREATED ? record.restore() : job.recovery();
    job.resetAfterControlPlaneRestart(after, "a new control plane takes the job over (the server restarted, or "
        + "another replica took the lead)");
    job.markTakenOver();
    if (after == ObservedState.RECOVERING) {
      // the workers may still run it (an earlier control plane's workers outlive it): then it goes on
      job.deploy(record, spec, from, "resuming after a control-plane restart: the attempt its workers still run, if "
          + "they do, else " + describe(from), null, true);
    } else if (after == ObservedState.STOPPED && record.desired() == DesiredState.RUNNING) {
      job.deploy(record, spec, record.restore(), "resumed " + describe(record.restore()), null);
    }
  }

  /**
   * What the reconcile loop does to a job whose observed state is not what its record asks for
   * (nothing when it is): a job that should run and is CREATED or STOPPED starts from the record's
   * restore policy; a job that should be stopped and has a run is stopped (without a savepoint); a
   * running job whose run was deployed from another spec or parallelism than the record's rolls the
   * record out, by savepoint and redeploy when it is RUNNING. FAILED and FINISHED jobs stay so until
   * the user acts.
   *
   * @return what was done, for the log, or null if nothing was
   */
  String reconcile(ManagedJob job, JobRecord record, JobSpec spec) throws InterruptedException {
    ObservedState s = job.state();
    if (record.desired() == DesiredState.RUNNING) {
      if (s == ObservedState.CREATED || s == ObservedState.STOPPED) {
        String why = "reconciling: the job should run but is " + s + "; starting " + describe(record.restore());
        job.deploy(record, spec, record.restore(), why, null);
        return why;
      }
      if (s == ObservedState.RUNNING && job.runs(record) && idleFor(job, spec) != null) {
        return idle(job, idleFor(job, spec));
      }
      if (s.runnerDriven() && !job.runs(record)) {
        String why = "reconciling: the run does not run spec generation " + record.generation()
            + (record.parallelism() != null ? " at parallelism " + record.parallelism() : "");
        boolean savepoint = s == ObservedState.RUNNING;
        Ending e = endRun(job, ObservedState.UPDATING, why + (savepoint ? "; rolling it out by savepoint and redeploy"
            : "; rolling it out from the latest checkpoint, the job being " + s), savepoint);
        redeploy(job, record, spec, e, "spec generation " + record.generation(), "apply the previous spec again");
        return why;
      }
      return null;
    }
    if (s == ObservedState.IDLE) {
      job.move(ObservedState.STOPPED, "stopped while idle; a resume restores the latest checkpoint");
      return "reconciling: the job should be stopped but is IDLE";
    }
    if (s.active()) {
      String why = "reconciling: the job should be stopped but is " + s;
      endRun(job, ObservedState.STOPPING, why, false);
      job.move(ObservedState.STOPPED, "stopped; a resume restores the latest checkpoint");
      return why;
    }
    return null;
  }

  /**
   * How long the sources of a RUNNING job have read nothing, if that is at least its
   * {@code idleAfter} (and it may go idle now); null otherwise.
   */
  private Duration idleFor(ManagedJob job, JobSpec spec) {
    Duration after = spec.effectiveIdleAfter();
    Instant last = job.metrics.lastSourceInput();
    Instant now = ctx.now();
    if (after == null || last == null || (job.idleNotBefore() != null && now.isBefore(job.idleNotBefore()))) {
      return null;
    }
    Duration quiet = Duration.between(last, now);
    return quiet.compareTo(after) >= 0 ? quiet : null;
  }

  /**
   * Scales a RUNNING job whose sources read nothing for {@code quiet} to zero: a checkpoint (which
   * commits all output so far), the run ends, the job is IDLE and holds no worker; the
   * {@link SourceWatch} resumes it when its sources have new input. If no checkpoint completes the
   * job keeps running and tries again after {@code idleAfter}.
   *
   * @return what was done, for the log
   */
  private String idle(ManagedJob job, Duration quiet) throws InterruptedException {
    JobRun r = job.run();
    String since = "its sources read nothing for " + describe(quiet);
    CheckpointMetadata at;
    try {
      at = r.checkpointThenCancel(ctx.actionTimeout());
    } catch (JobRun.SavepointFailed e) {
      job.idleNotBefore(ctx.now().plus(quiet));
      ctx.events.append(job.project, job.name, JobEvent.Type.STATE_CHANGED, null, null, since + ", but the "
          + "checkpoint to go idle at did not complete (" + e.getMessage() + "); the job keeps running and tries "
          + "again later");
      return "going idle failed: " + e.getMessage();
    }
    job.detach(ObservedState.STOPPING, since + "; " + (at != null ? "checkpoint " + at.id() : "a checkpoint")
        + " taken, giving back its workers");
    awaitEnd(job, r);
    job.idleNotBefore(null);
    job.watchProblem(null);
    job.move(ObservedState.IDLE, "idle: scaled to zero after " + since + "; it resumes from its latest checkpoint "
        + "as soon as its sources have new input");
    return "scaled to zero: " + since;
  }

  /**
   * Resumes an IDLE job that is to run, from its latest checkpoint (the one it went idle at, which
   * committed all its output), because its sources have {@code pending} records.
   *
   * @return whether it was resumed
   */
  boolean wake(ManagedJob job, JobRecord record, JobSpec spec, long pending) {
    if (job.state() != ObservedState.IDLE || record.desired() != DesiredState.RUNNING) {
      return false;
    }
    job.deploy(record, spec, RestorePolicy.LATEST, "new input: " + pending + " record" + (pending == 1 ? "" : "s")
        + " waiting on its sources; resuming from the latest checkpoint", null);
    return true;
  }

  /**
   * Detaches the run (moving to {@code to}), takes a savepoint at which it is cancelled if asked
   * for, and otherwise cancels it; waits for its end.
   */
  private Ending endRun(ManagedJob job, ObservedState to, String why, boolean savepointFirst)
      throws InterruptedException {
    JobRun r = job.detach(to, why);
    if (r == null) {
      return new Ending(null, null);
    }
    CheckpointMetadata sp = null;
    String spFailure = null;
    if (savepointFirst) {
      try {
        sp = r.savepointThenCancel(ctx.actionTimeout(), JobRun.Triggers.ROLLOUT);
      } catch (JobRun.SavepointFailed e) {
        spFailure = e.getMessage();
      }
    }
    r.cancel();
    awaitEnd(job, r);
    return new Ending(sp, spFailure);
  }

  private void awaitEnd(ManagedJob job, JobRun r) throws InterruptedException {
    try {
      r.awaitEnd(ctx.actionTimeout());
    } catch (TimeoutException e) {
      String message = "the run of job '" + job.name + "' did not stop within " + ctx.actionTimeout().toMillis()
          + " ms; restart the job";
      job.fail(new JobFailure(Failure.Domain.INTERNAL, true, message));
      throw new OperationFailedException(message, Failure.Domain.INTERNAL, true, e);
    }
    job.ended(r);
  }

  /** Starts the job again after an action ended its run, from the savepoint if there is one. */
  private void redeploy(ManagedJob job, JobRecord record, JobSpec spec, Ending e, String what, String undo) {
    if (e.savepoint() != null) {
      String path = JobContext.pathOf(e.savepoint());
      job.deploy(record, spec, new RestorePolicy(RestorePolicy.Mode.PATH, path),
          what + " from savepoint " + e.savepoint().id(),
          "the state from before the change is kept in savepoint " + path + ": " + undo + " to continue from it, or "
              + "resume with restore none to start without state");
    } else {
      job.deploy(record, spec, RestorePolicy.LATEST, what + " from the latest checkpoint"
              + (e.savepointFailure() != null ? " (the savepoint failed: " + e.savepointFailure() + ")" : ""),
          "the state from before the change is kept in the latest checkpoint: " + undo + " to continue from it, or "
              + "resume with restore none to start without state");
    }
  }

  /** A quiet time as people say it: {@code 45 s}, {@code 12 min}. */
  static String describe(Duration d) {
    long s = Math.max(0, d.toSeconds());
    return s < 120 ? s + " s" : (s / 60) + " min";
  }

  static String describe(RestorePolicy p) {
    return switch (p.mode()) {
      case LATEST -> "from the latest checkpoint";
      case NONE -> "without state";
      case PATH -> "from " + p.path();
    };
  }
}
