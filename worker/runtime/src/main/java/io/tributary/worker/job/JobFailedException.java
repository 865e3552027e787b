package io.tributary.worker.job;

/** The job stopped because a task failed; the cause names the task and the error. */
public class JobFailedException extends RuntimeException {
  JobFailedException(Throwable cause) {
    super(cause.getMessage(), cause);
  }
}
