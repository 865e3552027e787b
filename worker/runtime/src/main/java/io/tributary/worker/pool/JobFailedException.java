package io.tributary.worker.pool;

import io.tributary.protocol.Failure;

/** An attempt stopped because a task failed; the message names the task and the error. */
public final class JobFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Failure failure;

  JobFailedException(Failure failure, Throwable cause) {
    super(failure.message(), cause);
    this.failure = failure;
  }

  /** The classified failure, as reported to the control plane. */
  public Failure failure() {
    return failure;
  }
}
