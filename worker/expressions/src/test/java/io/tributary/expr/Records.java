package io.tributary.expr;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;

/** Test records from alternating names and values. */
final class Records {
  private Records() {}

  static Record of(Object... namesAndValues) {
    String[] names = new String[namesAndValues.length / 2];
    Object[] values = new Object[names.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = (String) namesAndValues[2 * i];
      values[i] = namesAndValues[2 * i + 1];
    }
    return new Record(Schema.of(names), values, Record.NO_TIMESTAMP);
  }

  /** Evaluates {@code sql} against a record of the given fields. */
  static Object eval(String sql, Object... namesAndValues) {
    return Expressions.compile(sql).eval(of(namesAndValues));
  }
}
