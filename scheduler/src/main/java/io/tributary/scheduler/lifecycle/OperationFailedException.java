package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/**
 * The control plane could not complete an action on a job it accepted: a savepoint that failed or
 * timed out, a run that did not stop in time, the metadata store unavailable. Retryable ones map to
 * 503, the others to 500. The job is left in a consistent state, described in the message.
 */
public final class OperationFailedException extends ControlException {
  private static final long serialVersionUID = 1L;

  public OperationFailedException(String message, Failure.Domain domain, boolean retryable, Throwable cause) {
    super(message, domain, retryable, cause);
  }
}
