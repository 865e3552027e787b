package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/**
 * Why a job FAILED: whose fault it is and whether a restart may help.
 *
 * @param domain who is at fault: USER (the spec, an expression, a savepoint that does not fit the
 *     job), EXTERNAL (storage, Kafka) or INTERNAL
 * @param retryable whether a restart from the latest checkpoint may help
 * @param message one line for the user, as {@link Failure#describe()} puts it, with what to do next
 *     when the control plane knows
 */
public record JobFailure(Failure.Domain domain, boolean retryable, String message) {
  static JobFailure of(Failure f, String message) {
    return new JobFailure(f.domain(), f.retryable(), message);
  }
}
