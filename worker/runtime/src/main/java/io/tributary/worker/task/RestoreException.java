package io.tributary.worker.task;

/**
 * A checkpoint or savepoint cannot be restored into a job (changed maxParallelism, state of an
 * operator the job no longer has). A user error: retrying does not help.
 */
public final class RestoreException extends RuntimeException {
  public RestoreException(String message) {
    super(message);
  }
}
