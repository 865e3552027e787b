package io.tributary.scheduler.placement;

/**
 * A checkpoint or savepoint cannot be restored into the job as it is now (another number of key
 * groups, state of an operator the job no longer has, a split its source cannot resume): the user's
 * to fix, and restarting does not help.
 */
public final class IncompatibleRestoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public IncompatibleRestoreException(String message) {
    super(message);
  }
}
