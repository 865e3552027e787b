package io.tributary.expr.internal;

/**
 * A failure while evaluating one record (type mismatch, division by zero). Cheap: no stack trace,
 * since malformed records can be frequent. {@link GeneratedExpression} turns it into an
 * {@link io.tributary.expr.ExpressionException} that names the expression.
 */
public final class EvalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public EvalException(String message) {
    super(message, null, false, false);
  }
}
