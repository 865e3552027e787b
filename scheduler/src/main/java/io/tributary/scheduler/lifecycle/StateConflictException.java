package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/**
 * The job's state does not allow the action (409): a savepoint of a stopped job, resuming a running
 * one, or any action while another action on the same job is in progress. {@link #retryable()}
 * tells whether the state may change by itself so that the same request succeeds later (a job that
 * is still deploying), or whether the caller must do something else first.
 */
public final class StateConflictException extends ControlException {
  private static final long serialVersionUID = 1L;

  private final ObservedState state;

  public StateConflictException(ObservedState state, String message, boolean retryable) {
    super(message, Failure.Domain.USER, retryable, null);
    this.state = state;
  }

  /** The job's observed state when the action was refused, or null if it does not matter. */
  public ObservedState state() {
    return state;
  }
}
