package io.tributary.expr.internal;

import java.util.List;
import java.util.Map;

/** Runtime value helpers shared by the operator classes: normalisation and describing values. */
public final class Values {
  private Values() {}

  /** Integer, Short and Byte become Long; Float becomes Double; anything else is unchanged. */
  public static Object normalize(Object v) {
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float) {
      return ((Float) v).doubleValue();
    }
    return v;
  }

  static boolean isNumber(Object v) {
    return v instanceof Long || v instanceof Double;
  }

  /** The SQL type name of a runtime value, for messages. */
  public static String typeName(Object v) {
    if (v == null) {
      return "NULL";
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return "BIGINT";
    } else if (v instanceof Double || v instanceof Float) {
      return "DOUBLE";
    } else if (v instanceof String) {
      return "VARCHAR";
    } else if (v instanceof Boolean) {
      return "BOOLEAN";
    } else if (v instanceof Map) {
      return "MAP";
    } else if (v instanceof List) {
      return "ARRAY";
    }
    return v.getClass().getSimpleName();
  }

  /** "VARCHAR 'abc'" style description of a value, shortened for messages. */
  public static String describe(Object v) {
    String text = String.valueOf(v);
    if (text.length() > 40) {
      text = text.substring(0, 37) + "...";
    }
    return typeName(v) + " " + (v instanceof String ? "'" + text + "'" : text);
  }

  static EvalException typeError(String op, Object a, Object b) {
    return new EvalException(
        "cannot apply '" + op + "' to " + describe(a) + " and " + describe(b));
  }

  static EvalException typeError(String op, Object a) {
    return new EvalException("cannot apply " + op + " to " + describe(a));
  }
}
