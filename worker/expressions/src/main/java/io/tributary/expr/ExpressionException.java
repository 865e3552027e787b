package io.tributary.expr;

/**
 * A user error in a SQL expression: it does not parse, uses something unsupported, or failed
 * while evaluating one record (type mismatch, division by zero). The message is fit to show a
 * user; it names the expression and, where known, the position and offending token. Retrying
 * does not help.
 */
public class ExpressionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ExpressionException(String message) {
    super(message);
  }

  public ExpressionException(String message, Throwable cause) {
    super(message, cause);
  }
}
