package io.tributary.protocol;

/**
 * An operation on workers failed (an attempt could not be deployed, a sink could not commit, a
 * source could not be listed); {@link #failure()} says whose fault it is and whether to retry.
 */
public final class WorkerException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final Failure failure;

  public WorkerException(Failure failure, Throwable cause) {
    super(failure.message(), cause);
    this.failure = failure;
  }

  public Failure failure() {
    return failure;
  }
}
