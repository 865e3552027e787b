package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;

/**
 * A request parameter is invalid (400): a name that is not a DNS label, a parallelism out of
 * bounds, a restore path that names no savepoint of the job. A user error; repeating it does not
 * help.
 */
public final class InvalidRequestException extends ControlException {
  private static final long serialVersionUID = 1L;

  private final String field;
  private final String reason;

  /**
   * @param field the offending parameter as the API names it ({@code name}, {@code project},
   *     {@code parallelism}, {@code restore}, {@code limit}, {@code pageToken})
   * @param message what is wrong, fit to show the user; the field's name is prefixed
   */
  public InvalidRequestException(String field, String message) {
    super(field + ": " + message, Failure.Domain.USER, false, null);
    this.field = field;
    this.reason = message;
  }

  /** What is wrong with the parameter, without its name (the message has it in front). */
  public String reason() {
    return reason;
  }

  /** The offending parameter. */
  public String field() {
    return field;
  }
}
