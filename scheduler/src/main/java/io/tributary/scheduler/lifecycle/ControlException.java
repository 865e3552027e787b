package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/**
 * A request to the control plane could not be carried out (who is at fault, and whether
 * retrying helps). The REST layer maps each subclass to one status in one place:
 *
 * <ul>
 *   <li>{@link InvalidRequestException}: 400, naming the offending field;
 *   <li>{@link NotFoundException}: 404;
 *   <li>{@link StateConflictException}: 409, the job's state does not allow the action now;
 *   <li>{@link PreconditionFailedException}: 412, an {@code If-Match} version is stale;
 *   <li>{@link OperationFailedException}: 503 when {@link #retryable()}, else 500;
 *   <li>{@link QuotaExceededException}: 429 or 409, naming the quota.
 * </ul>
 *
 * <p>An invalid job spec is not one of these: {@link io.tributary.scheduler.spec.InvalidSpecException} passes
 * through unchanged, with JSON pointers into the spec document (400).
 */
public abstract sealed class ControlException extends RuntimeException
    permits InvalidRequestException, NotFoundException, StateConflictException, PreconditionFailedException,
    OperationFailedException, QuotaExceededException {
  private static final long serialVersionUID = 1L;

  private final Failure.Domain domain;
  private final boolean retryable;

  ControlException(String message, Failure.Domain domain, boolean retryable, Throwable cause) {
    super(message, cause);
    this.domain = domain;
    this.retryable = retryable;
  }

  /** Who is at fault: the caller (USER), a dependency (EXTERNAL), or Tributary (INTERNAL). */
  public Failure.Domain domain() {
    return domain;
  }

  /** Whether the same request may succeed later, unchanged. */
  public boolean retryable() {
    return retryable;
  }
}
