package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/**
 * A request would take a project beyond one of its quotas ({@link io.tributary.scheduler.policy.Quotas}):
 * 429 when it would need more of a counted resource (jobs, tokens, parallelism) than the project
 * has left, 409 when the spec asks for what no job of the project may have (a shorter checkpoint
 * interval, a faster source). Not retryable as it is: free the resource, or change the request.
 */
public final class QuotaExceededException extends ControlException {
  private static final long serialVersionUID = 1L;

  private final String quota;
  private final String limit;
  private final String requested;
  private final String field;
  private final boolean counted;

  /**
   * @param quota the quota's name ({@code jobs}, {@code tokens}, {@code parallelism},
   *     {@code minCheckpointInterval}, {@code maxRecordsPerSecond})
   * @param field the JSON pointer of the request field that asks too much, or null
   * @param counted a counted resource (429) rather than a bound on a value (409)
   */
  public QuotaExceededException(String quota, String limit, String requested, String field, boolean counted,
      String message) {
    super(message, Failure.Domain.USER, false, null);
    this.quota = quota;
    this.limit = limit;
    this.requested = requested;
    this.field = field;
    this.counted = counted;
  }

  public String quota() {
    return quota;
  }

  public String limit() {
    return limit;
  }

  public String requested() {
    return requested;
  }

  /** The JSON pointer of the field that asks too much, or null. */
  public String field() {
    return field;
  }

  /** 429 (a counted resource) or 409 (a bound on a value). */
  public int status() {
    return counted ? 429 : 409;
  }
}
