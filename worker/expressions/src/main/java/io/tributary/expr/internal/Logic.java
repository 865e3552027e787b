package io.tributary.expr.internal;

/**
 * SQL three-valued logic for generated code. Booleans are always the canonical Boolean.TRUE and
 * Boolean.FALSE; null is UNKNOWN. A non-boolean operand throws {@link EvalException}.
 */
public final class Logic {
  private Logic() {}

  public static Boolean of(boolean b) {
    return b ? Boolean.TRUE : Boolean.FALSE;
  }

  /** The operand as a canonical Boolean or null; throws when it is not a boolean. */
  public static Boolean bool(Object v, String where) {
    if (v == null || v == Boolean.TRUE || v == Boolean.FALSE) {
      return (Boolean) v;
    } else if (v instanceof Boolean) {
      return of((Boolean) v);
    }
    throw new EvalException(where + " needs a BOOLEAN, got " + Values.describe(v));
  }

  public static Boolean and(Object a, Object b) {
    Boolean x = bool(a, "AND");
    Boolean y = bool(b, "AND");
    if (x == Boolean.FALSE || y == Boolean.FALSE) {
      return Boolean.FALSE;
    }
    return x == null || y == null ? null : Boolean.TRUE;
  }

  public static Boolean or(Object a, Object b) {
    Boolean x = bool(a, "OR");
    Boolean y = bool(b, "OR");
    if (x == Boolean.TRUE || y == Boolean.TRUE) {
      return Boolean.TRUE;
    }
    return x == null || y == null ? null : Boolean.FALSE;
  }

  public static Boolean not(Object a) {
    Boolean x = bool(a, "NOT");
    return x == null ? null : of(!x);
  }

  /** {@code a IS TRUE}: never null. */
  public static Boolean isTrue(Object a) {
    return of(bool(a, "IS TRUE") == Boolean.TRUE);
  }

  /** {@code a IS FALSE}: never null. */
  public static Boolean isFalse(Object a) {
    return of(bool(a, "IS FALSE") == Boolean.FALSE);
  }

  /** A CASE condition or filter: true only for TRUE. */
  public static boolean holds(Object a) {
    return a == Boolean.TRUE || bool(a, "WHEN") == Boolean.TRUE;
  }
}
