package io.tributary.expr.internal;

import io.tributary.expr.CompiledExpression;
import io.tributary.expr.ExpressionException;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;

/**
 * Base of the classes generated from expressions. Caches the positions of the referenced fields
 * for the last schema seen (schemas are interned, so a reference compare per record); a field the
 * schema lacks reads as NULL. Not thread-safe: one instance per task thread.
 */
public abstract class GeneratedExpression implements CompiledExpression {
  private final String sql;
  private final String[] fields;
  private Schema schema;

  protected GeneratedExpression(String sql, String[] fields) {
    this.sql = sql;
    this.fields = fields;
  }

  /** Evaluates over the record's values, field positions already bound. */
  protected abstract Object evaluate(Object[] values);

  /** Stores the positions of the fields for schema {@code s}, via {@link #position}. */
  protected abstract void bind(Schema s);

  /** The position of referenced field number {@code k} in {@code s}, or -1. */
  protected final int position(Schema s, int k) {
    return s.indexOf(fields[k]);
  }

  @Override
  public final Object eval(Record record) {
    Schema s = record.schema();
    if (s != schema) {
      bind(s);
      schema = s;
    }
    try {
      return evaluate(record.values());
    } catch (EvalException e) {
      throw new ExpressionException("cannot evaluate `" + sql + "`: " + e.getMessage(), e);
    } catch (ArithmeticException e) {
      throw new ExpressionException("cannot evaluate `" + sql + "`: BIGINT overflow", e);
    }
  }

  @Override
  public final boolean test(Record record) {
    Object v = eval(record);
    if (v == Boolean.TRUE) {
      return true;
    } else if (v == null || v instanceof Boolean) {
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
