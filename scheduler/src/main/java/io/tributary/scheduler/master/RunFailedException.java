package io.tributary.scheduler.master;

import io.tributary.protocol.Failure;

/** A job failed and was not (or no longer) restarted. */
public final class RunFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Failure failure;

  RunFailedException(Failure failure, int restarts) {
    super(failure.describe() + (failure.retryable() ? " (gave up after " + restarts + " restarts)" : ""));
    this.failure = failure;
  }

  public Failure failure() {
    return failure;
  }
}
