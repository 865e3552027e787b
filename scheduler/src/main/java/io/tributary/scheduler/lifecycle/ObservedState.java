package io.tributary.scheduler.lifecycle;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a job is doing, as the control plane observes it. Every change goes through
 * {@link #checkMoveTo}, which refuses a move the table below does not declare.
 *
 * <pre>
 *  CREATED --> DEPLOYING --started--> RUNNING --input ended--> FINISHED
 *                  ^                   |  ^
 *                  |     run failed    |  | started
 *                  |  (retry); restart v  |
 *                  +-----restart----- RECOVERING <--run failed, will retry; restart-- DEPLOYING
 *
 *  DEPLOYING, RUNNING, RECOVERING --rescale--> RESCALING --savepoint, stop--> DEPLOYING
 *                                 --new spec-> UPDATING  --savepoint, stop--> DEPLOYING
 *                                 --stop-----> STOPPING  --(savepoint,) stop--> STOPPED
 *                                 --not retryable, or restarts exhausted--> FAILED
 *  RUNNING --no input for idleAfter--> STOPPING --checkpoint, stop--> IDLE --new input--> DEPLOYING
 *  STOPPED, FAILED, FINISHED, IDLE --resume, restart (FAILED: also a new spec)--> DEPLOYING
 *  FAILED, FINISHED, IDLE --stop--> STOPPED
 *  RESCALING, UPDATING, STOPPING --the run would not stop--> FAILED
 * </pre>
 *
 * <p>DEPLOYING, RUNNING and RECOVERING follow the job's run (its runner reports a start, a restart
 * after a failure, the end); RESCALING, UPDATING and STOPPING last while an action replaces or ends
 * the run. STOPPED, FAILED, FINISHED and IDLE have no run; an IDLE job is to run, and starts again
 * from its latest checkpoint as soon as its sources have new input.
 *
 * <p>Moves bypass the table only when the control plane starts again over its stored jobs: a job
 * whose run died with the previous process takes {@link #afterControlPlaneRestart}, and a job whose
 * stored spec can no longer be planned goes FAILED.
 */
public enum ObservedState {
  /** Recorded, not deployed yet. */
  CREATED,
  /** A run is starting: planning, restoring state, starting tasks. */
  DEPLOYING,
  /** Every task runs; checkpoints are taken. */
  RUNNING,
  /** The run failed and restarts from its latest checkpoint (or a restart was asked for). */
  RECOVERING,
  /** Taking a savepoint and stopping the run, to start again at another parallelism. */
  RESCALING,
  /** Taking a savepoint and stopping the run, to start the changed spec from it. */
  UPDATING,
  /** Taking a savepoint (if asked for) and stopping the run. */
  STOPPING,
  /** Not running, as wanted; resumes from its savepoint or latest checkpoint. */
  STOPPED,
  /** Its bounded input ended and its output is committed. */
  FINISHED,
  /** Its run failed and was not restarted; the failure says why and whose fault it was. */
  FAILED,
  /**
   * Scaled to zero: its sources read nothing for its {@code idleAfter}, so it took a checkpoint and
   * gave back its workers; it resumes from that checkpoint when its sources have new input.
   */
  IDLE;

  private static final Set<ObservedState> RUNNER_DRIVEN = Collections.unmodifiableSet(
      EnumSet.of(DEPLOYING, RUNNING, RECOVERING));
  private static final Set<ObservedState> AT_REST = Collections.unmodifiableSet(
      EnumSet.of(CREATED, STOPPED, FINISHED, FAILED, IDLE));

  private Set<ObservedState> next;

  static {
    CREATED.allow(DEPLOYING);
    DEPLOYING.allow(RUNNING, RECOVERING, RESCALING, UPDATING, STOPPING, FAILED);
    RUNNING.allow(RECOVERING, RESCALING, UPDATING, STOPPING, FINISHED, FAILED);
    RECOVERING.allow(RUNNING, DEPLOYING, RESCALING, UPDATING, STOPPING, FAILED);
    RESCALING.allow(DEPLOYING, FAILED);
    UPDATING.allow(DEPLOYING, FAILED);
    STOPPING.allow(STOPPED, FAILED, IDLE);
    STOPPED.allow(DEPLOYING);
    FINISHED.allow(DEPLOYING, STOPPED);
    FAILED.allow(DEPLOYING, STOPPED);
    IDLE.allow(DEPLOYING, STOPPED);
  }

  private void allow(ObservedState first, ObservedState... rest) {
    next = Collections.unmodifiableSet(EnumSet.of(first, rest));
  }

  /** The states this one may move to. */
  public Set<ObservedState> next() {
    return next;
  }

  public boolean canMoveTo(ObservedState to) {
    return next.contains(to);
  }

  /**
   * Returns {@code to} if the table allows the move.
   *
   * @throws IllegalStateException naming both states and the allowed ones: a bug in the control
   *     plane, never the user's fault
   */
  public ObservedState checkMoveTo(ObservedState to) {
    if (!canMoveTo(to)) {
      throw new IllegalStateException("illegal job state transition " + this + " -> " + to + "; from " + this
          + " a job may move to " + next);
    }
    return to;
  }

  /** Whether a run of the job exists (it may be starting, restarting or stopping). */
  public boolean active() {
    return !AT_REST.contains(this);
  }

  /** Whether the state follows what the run reports (no action is replacing or ending the run). */
  public boolean runnerDriven() {
    return RUNNER_DRIVEN.contains(this);
  }

  /**
   * The state of a stored job when the control plane starts again: the run of an active job died
   * with the previous process, so a job that should run is RECOVERING (it restarts from its latest
   * checkpoint), and one that should not is STOPPED. Jobs at rest keep their state: a FAILED job stays
   * failed until the user acts.
   */
  public ObservedState afterControlPlaneRestart(DesiredState desired) {
    if (!active() && this != CREATED) {
      return this;
    }
    return desired == DesiredState.RUNNING ? RECOVERING : STOPPED;
  }
}
