package io.tributary.expr.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Numeric functions and COALESCE-like helpers for generated code. NULL propagates. */
public final class Funcs {
  private Funcs() {}

  static Object number(Object v, String where) {
    Object n = Values.normalize(v);
    if (n == null || n instanceof Long || n instanceof Double) {
      return n;
    }
    throw new EvalException(where + " needs a number, got " + Values.describe(v));
  }

  /** An integral argument (position, length, digits); a DOUBLE must hold an integer. */
  static Long integer(Object v, String where) {
    Object n = number(v, where);
    if (n instanceof Double) {
      double d = (Double) n;
      if (d != Math.rint(d) || Math.abs(d) >= 0x1p63) {
        throw new EvalException(where + " must be an integer, got " + Values.describe(v));
      }
      return (long) d;
    }
    return (Long) n;
  }

  public static Object abs(Object a) {
    Object n = number(a, "ABS");
    if (n instanceof Long) {
      long l = (Long) n;
      if (l == Long.MIN_VALUE) {
        throw new ArithmeticException("long overflow");
      }
      return Math.abs(l);
    }
    return n == null ? null : Math.abs((Double) n);
  }

  public static Object floor(Object a) {
    Object n = number(a, "FLOOR");
    return n instanceof Double ? (Object) Math.floor((Double) n) : n;
  }

  public static Object ceil(Object a) {
    Object n = number(a, "CEIL");
    return n instanceof Double ? (Object) Math.ceil((Double) n) : n;
  }

  public static Object round(Object a) {
    return round(a, 0L);
  }

  /** ROUND(x, d): half away from zero to d decimal places (d may be negative); keeps x's type. */
  public static Object round(Object a, Object digits) {
    Object n = number(a, "ROUND");
    Long d = integer(digits, "ROUND digits");
    if (n == null || d == null) {
      return null;
    }
    int scale = (int) Math.max(-400, Math.min(400, d));
    if (n instanceof Long) {
      return scale >= 0 ? n : BigDecimal.valueOf((Long) n).setScale(scale, RoundingMode.HALF_UP).longValue();
    }
    double x = (Double) n;
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    return BigDecimal.valueOf(x).setScale(scale, RoundingMode.HALF_UP).doubleValue();
  }

  /** GREATEST: NULL if any argument is NULL; DOUBLE if any argument is DOUBLE. */
  public static Object greatest(Object... args) {
    return extreme("GREATEST", 1, args);
  }

  /** LEAST: NULL if any argument is NULL; DOUBLE if any argument is DOUBLE. */
  public static Object least(Object... args) {
    return extreme("LEAST", -1, args);
  }

  private static Object extreme(String name, int sign, Object[] args) {
    Object best = null;
    boolean anyDouble = false;
    for (Object arg : args) {
      Object v = Values.normalize(arg);
      if (v == null) {
        return null;
      }
      anyDouble |= v instanceof Double;
      if (best == null || sign * Compare.compare(name, v, best) > 0) {
        best = v;
      }
    }
    return anyDouble && best instanceof Long ? (Object) ((Long) best).doubleValue() : best;
  }
}
