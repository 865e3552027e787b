package io.tributary.expr.internal;

/**
 * Comparisons for generated code, returning Boolean.TRUE, Boolean.FALSE or null (when an operand
 * is NULL). Numbers compare numerically whatever their type, strings lexicographically, booleans
 * FALSE before TRUE; other mixes throw {@link EvalException}. Overloads taking a primitive right
 * operand serve literals.
 */
public final class Compare {
  static final int EQ = 0;
  static final int NE = 1;
  static final int LT = 2;
  static final int LE = 3;
  static final int GT = 4;
  static final int GE = 5;
  private static final String[] NAMES = {"=", "<>", "<", "<=", ">", ">="};

  private Compare() {}

  public static Boolean eq(Object a, Object b) {
    return cmp(EQ, a, b);
  }

  public static Boolean eq(Object a, long b) {
    return cmpLong(EQ, a, b);
  }

  public static Boolean eq(Object a, double b) {
    return cmpDouble(EQ, a, b);
  }

  public static Boolean ne(Object a, Object b) {
    return cmp(NE, a, b);
  }

  public static Boolean ne(Object a, long b) {
    return cmpLong(NE, a, b);
  }

  public static Boolean ne(Object a, double b) {
    return cmpDouble(NE, a, b);
  }

  public static Boolean lt(Object a, Object b) {
    return cmp(LT, a, b);
  }

  public static Boolean lt(Object a, long b) {
    return cmpLong(LT, a, b);
  }

  public static Boolean lt(Object a, double b) {
    return cmpDouble(LT, a, b);
  }

  public static Boolean le(Object a, Object b) {
    return cmp(LE, a, b);
  }

  public static Boolean le(Object a, long b) {
    return cmpLong(LE, a, b);
  }

  public static Boolean le(Object a, double b) {
    return cmpDouble(LE, a, b);
  }

  public static Boolean gt(Object a, Object b) {
    return cmp(GT, a, b);
  }

  public static Boolean gt(Object a, long b) {
    return cmpLong(GT, a, b);
  }

  public static Boolean gt(Object a, double b) {
    return cmpDouble(GT, a, b);
  }

  public static Boolean ge(Object a, Object b) {
    return cmp(GE, a, b);
  }

  public static Boolean ge(Object a, long b) {
    return cmpLong(GE, a, b);
  }

  public static Boolean ge(Object a, double b) {
    return cmpDouble(GE, a, b);
  }

  /** {@code x BETWEEN lo AND hi}, three-valued; {@code symmetric} swaps bounds when lo > hi. */
  public static Boolean between(Object x, Object lo, Object hi, boolean symmetric) {
    if (symmetric && lo != null && hi != null && compare("BETWEEN", lo, hi) > 0) {
      return Logic.and(cmp(LE, hi, x), cmp(LE, x, lo));
    }
    return Logic.and(cmp(LE, lo, x), cmp(LE, x, hi));
  }

  private static Boolean cmpLong(int op, Object a, long b) {
    if (a instanceof Long) {
      long x = (Long) a;
      return result(op, x < b ? -1 : (x == b ? 0 : 1));
    } else if (a instanceof Double) {
      return result(op, compareDoubles((Double) a, b));
    }
    return cmp(op, a, b);
  }

  private static Boolean cmpDouble(int op, Object a, double b) {
    if (a instanceof Double) {
      return result(op, compareDoubles((Double) a, b));
    } else if (a instanceof Long) {
      return result(op, compareDoubles((Long) a, b));
    }
    return cmp(op, a, b);
  }

  private static Boolean cmp(int op, Object a, Object b) {
    if (a == null || b == null) {
      return null;
    }
    return result(op, compare(NAMES[op], a, b));
  }

  /**
   * Compares two non-null values, or throws {@link EvalException} naming {@code op} when they are
   * not comparable.
   */
  static int compare(String op, Object a, Object b) {
    Object x = Values.normalize(a);
    Object y = Values.normalize(b);
    if (x instanceof Long && y instanceof Long) {
      return Long.compare((Long) x, (Long) y);
    } else if (Values.isNumber(x) && Values.isNumber(y)) {
      return compareDoubles(((Number) x).doubleValue(), ((Number) y).doubleValue());
    } else if (x instanceof String && y instanceof String) {
      return ((String) x).compareTo((String) y);
    } else if (x instanceof Boolean && y instanceof Boolean) {
      return Boolean.compare((Boolean) x, (Boolean) y);
    }
    throw Values.typeError(op, a, b);
  }

  private static int compareDoubles(double x, double y) {
    return x < y ? -1 : (x > y ? 1 : (x == y ? 0 : Double.compare(x, y)));
  }

  private static Boolean result(int op, int c) {
    boolean r;
    switch (op) {
      case EQ:
        r = c == 0;
        break;
      case NE:
        r = c != 0;
        break;
      case LT:
        r = c < 0;
        break;
      case LE:
        r = c <= 0;
        break;
      case GT:
        r = c > 0;
        break;
      default:
        r = c >= 0;
        break;
    }
    return r ? Boolean.TRUE : Boolean.FALSE;
  }
}
