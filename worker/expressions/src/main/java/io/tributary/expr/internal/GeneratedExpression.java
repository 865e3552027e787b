package io.tributary.expr.internal;

import io.tributary.expr.CompiledExpression;
import io.tributary.expr.ExpressionException;
import io.tributary.stream.Schema;

/**
 * Base of the classes generated from expressions. A generated class implements {@code eval} and
 * {@code test} itself (so a caller's interface call reaches the expression's code without a
 * second, megamorphic dispatch) and caches the positions of the referenced fields for the last
 * schema seen (schemas are interned: a reference compare per record); a field the schema lacks
 * reads as NULL. Not thread-safe: one instance per task thread.
 */
public abstract class GeneratedExpression implements CompiledExpression {
  private final String sql;
  private final String[] fields;

  protected GeneratedExpression(String sql, String[] fields) {
    this.sql = sql;
    this.fields = fields;
  }

  /** The position of referenced field number {@code k} in {@code s}, or -1. */
  protected final int position(Schema s, int k) {
    return s.indexOf(fields[k]);
  }

  /** The exception to throw for a failure while evaluating: user errors name the expression. */
  protected final RuntimeException failure(RuntimeException e) {
    if (e instanceof EvalException) {
      return new ExpressionException("cannot evaluate `" + sql + "`: " + e.getMessage(), e);
    } else if (e instanceof ArithmeticException) {
      return new ExpressionException("cannot evaluate `" + sql + "`: BIGINT overflow", e);
    }
    return e;
  }

  /** {@code test} for a value that is not Boolean.TRUE: false for FALSE and NULL, else an error. */
  protected final boolean condition(Object v) {
    if (v == null || v instanceof Boolean) {
      return v != null && (Boolean) v;
    }
    throw new ExpressionException(
        "condition `" + sql + "` must be BOOLEAN, got " + Values.describe(v));
  }

  @Override
  public String toString() {
    return sql;
  }
}
