package io.tributary.expr;

import io.tributary.stream.Record;

/**
 * A SQL expression compiled for evaluation against records.
 *
 * <p>Not thread-safe: an instance caches field positions per record schema. Use one instance per
 * task thread ({@link Expressions#compile} returns a fresh one each call, and is cheap after the
 * first compile of the same text).
 */
public interface CompiledExpression {
  /**
   * Evaluates the expression.
   *
   * @return a Long, Double, String, Boolean, or null (SQL NULL)
   * @throws ExpressionException on a type error or division by zero in this record
   */
  Object eval(Record record);

  /**
   * Evaluates the expression as a filter condition: true only if it evaluates to TRUE; NULL and
   * FALSE both give false.
   *
   * @throws ExpressionException if the value is not a boolean, or evaluation fails
   */
  boolean test(Record record);
}
