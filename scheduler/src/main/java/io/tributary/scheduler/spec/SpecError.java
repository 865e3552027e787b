package io.tributary.scheduler.spec;

import java.util.Objects;

/**
 * One problem in a job spec, or in the SQL text of a SQL job.
 *
 * @param pointer a JSON pointer (RFC 6901) to the offending value, for example
 *     {@code /operators/1/window/size}; {@code ""} for the document as a whole (and for every
 *     error of a SQL text, whose position says where)
 * @param message what is wrong, fit to show the user
 * @param line for an error in SQL text, the line it is at (from 1); 0 for a spec's errors
 * @param column for an error in SQL text, the column it is at (from 1); 0 when {@code line} is
 */
public record SpecError(String pointer, String message, int line, int column) {
  public SpecError {
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
    if (line < 0 || column < 0 || (line == 0) != (column == 0)) {
      throw new IllegalArgumentException("line and column are both positive or both 0, got " + line + ":" + column);
    }
  }

  /** An error in a spec: at {@code pointer}, without a position in SQL text. */
  public SpecError(String pointer, String message) {
    this(pointer, message, 0, 0);
  }

  /** An error at a line and column of a SQL text. */
  public static SpecError at(int line, int column, String message) {
    return new SpecError("", message, line, column);
  }

  /** Whether this error has a position in SQL text. */
  public boolean positioned() {
    return line > 0;
  }

  @Override
  public String toString() {
    if (positioned()) {
      return "line " + line + ", column " + column + ": " + message;
    }
    return (pointer.isEmpty() ? "(document)" : pointer) + ": " + message;
  }
}
