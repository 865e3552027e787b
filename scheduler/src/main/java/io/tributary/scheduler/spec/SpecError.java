package io.tributary.scheduler.spec;

import java.util.Objects;

/**
 * One problem in a job spec.
 *
 * @param pointer a JSON pointer (RFC 6901) to the offending value, for example
 *     {@code /operators/1/window/size}; {@code ""} for the document as a whole
 * @param message what is wrong, fit to show the user
 */
public record SpecError(String pointer, String message) {
  public SpecError {
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return (pointer.isEmpty() ? "(document)" : pointer) + ": " + message;
  }
}
