package io.tributary.worker.job;

import io.tributary.connect.ConnectorException;
import io.tributary.worker.task.RestoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Why a job failed, who is at fault and whether restarting can help (STYLE 9).
 *
 * <ul>
 *   <li>USER, not retryable: a checkpoint that cannot be restored into the job, an expression that
 *       fails, a connector misconfigured (a missing file, a bad property);
 *   <li>EXTERNAL, retryable: an I/O error of a file system, an object store or Kafka;
 *   <li>INTERNAL, retryable: anything else (a bug, or a fault that may not repeat).
 * </ul>
 *
 * @param domain who is at fault
 * @param retryable whether restarting from the latest checkpoint can help
 * @param message one line for the user, naming the task
 * @param cause the error
 */
public record Failure(Domain domain, boolean retryable, String message, Throwable cause) {
  public enum Domain { USER, EXTERNAL, INTERNAL }

  public static Failure classify(Throwable error) {
    Throwable t = unwrap(error);
    String message = error.getMessage() != null ? error.getMessage() : t.toString();
    if (has(t, RestoreException.class) || has(t, io.tributary.expr.ExpressionException.class)
        || has(t, io.tributary.expr.internal.EvalException.class)) {
      return new Failure(Domain.USER, false, message, t);
    }
    if (has(t, IOException.class) || has(t, UncheckedIOException.class) || kafkaRetriable(t)) {
      return new Failure(Domain.EXTERNAL, true, message, t);
    }
    if (t instanceof ConnectorException) {
      return new Failure(Domain.USER, false, message, t);
    }
    return new Failure(Domain.INTERNAL, true, message, t);
  }

  /** For logs and the CLI: {@code user error (not retryable): ...}. */
  public String describe() {
    return domain.name().toLowerCase(java.util.Locale.ROOT) + " error (" + (retryable ? "retryable" : "not retryable")
        + "): " + message;
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof JobFailedException || t instanceof LocalJob.TaskFailure || t instanceof CompletionException
        || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private static boolean has(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean kafkaRetriable(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c.getClass().getName().startsWith("org.apache.kafka.")) {
        return !(c instanceof CancellationException);
      }
    }
    return false;
  }
}
