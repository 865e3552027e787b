package io.tributary.scheduler.master;

import io.tributary.protocol.Failure;

/** A job failed and was not (or no longer) restarted. */
public final class RunFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Failure failure;

  /**
   * @param restarts the restarts in a row before this failure
   * @param maxRestarts the most the job's restart policy allows; 0: it does not restart
   * @param checkpoints whether the job takes checkpoints (without them a restart would start over)
   */
  RunFailedException(Failure failure, int restarts, int maxRestarts, boolean checkpoints) {
    super(failure.describe() + (!failure.retryable() ? ""
        : !checkpoints ? " (not restarted: the job takes no checkpoints to restart from)"
        : maxRestarts == 0 ? " (not restarted: restarts are off)"
        : " (gave up after " + restarts + " restarts)"));
    this.failure = failure;
  }

  public Failure failure() {
    return failure;
  }
}
