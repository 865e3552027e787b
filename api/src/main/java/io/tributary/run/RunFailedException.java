package io.tributary.run;

import io.tributary.worker.job.Failure;

/** A job failed and was not (or no longer) restarted. */
public final class RunFailedException extends RuntimeException {
  private final transient Failure failure;

  RunFailedException(Failure failure, int restarts) {
    super(failure.describe() + (failure.retryable() ? " (gave up after " + restarts + " restarts)" : ""),
        failure.cause());
    this.failure = failure;
  }

  public Failure failure() {
    return failure;
  }
}
