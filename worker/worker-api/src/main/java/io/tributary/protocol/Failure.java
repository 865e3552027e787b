package io.tributary.protocol;

import java.util.Locale;
import java.util.Objects;

/**
 * Why a task or a run failed: who is at fault and whether restarting from the latest checkpoint can
 * help.
 * <ul>
 *   <li>USER, not retryable: the job cannot work as written: a checkpoint that cannot be restored
 *       into it, an expression that fails, a connector misconfigured (a missing file, a bad
 *       property);
 *   <li>EXTERNAL, retryable: an I/O error of a file system, an object store or Kafka;
 *   <li>INTERNAL, retryable unless said otherwise: anything else (a bug, or a fault that may not
 *       repeat).
 * </ul>
 * Workers classify their own failures (they know the runtime's exceptions); the control plane only
 * reads the verdict.
 *
 * @param domain who is at fault
 * @param retryable whether restarting from the latest checkpoint can help
 * @param message one line for the user, naming the task
 */
public record Failure(Domain domain, boolean retryable, String message) {
  public enum Domain { USER, EXTERNAL, INTERNAL }

  public Failure {
    Objects.requireNonNull(domain, "domain");
    message = message == null ? "" : message;
  }

  /** A failure of the user's job: not retryable. */
  public static Failure user(String message) {
    return new Failure(Domain.USER, false, message);
  }

  /** For logs and the CLI: {@code user error (not retryable): ...}. */
  public String describe() {
    return domain.name().toLowerCase(Locale.ROOT) + " error (" + (retryable ? "retryable" : "not retryable") + "): "
        + message;
  }

  /** The same failure with {@code prefix} before its message. */
  public Failure prefixed(String prefix) {
    return new Failure(domain, retryable, prefix + message);
  }
}
