package io.tributary.expr.internal;

/**
 * Arithmetic for generated code. BIGINT op BIGINT stays BIGINT (division truncates, overflow is an
 * error); any DOUBLE operand makes the result DOUBLE; NULL propagates; non-numbers and division by
 * zero throw {@link EvalException}. Overloads taking a primitive right operand serve literals.
 */
public final class Arith {
  static final int ADD = 0;
  static final int SUB = 1;
  static final int MUL = 2;
  static final int DIV = 3;
  static final int MOD = 4;
  private static final String[] NAMES = {"+", "-", "*", "/", "%"};

  private Arith() {}

  public static Object add(Object a, Object b) {
    return apply(ADD, a, b);
  }

  public static Object add(Object a, long b) {
    return applyLong(ADD, a, b);
  }

  public static Object add(Object a, double b) {
    return applyDouble(ADD, a, b);
  }

  public static Object sub(Object a, Object b) {
    return apply(SUB, a, b);
  }

  public static Object sub(Object a, long b) {
    return applyLong(SUB, a, b);
  }

  public static Object sub(Object a, double b) {
    return applyDouble(SUB, a, b);
  }

  public static Object mul(Object a, Object b) {
    return apply(MUL, a, b);
  }

  public static Object mul(Object a, long b) {
    return applyLong(MUL, a, b);
  }

  public static Object mul(Object a, double b) {
    return applyDouble(MUL, a, b);
  }

  public static Object div(Object a, Object b) {
    return apply(DIV, a, b);
  }

  public static Object div(Object a, long b) {
    return applyLong(DIV, a, b);
  }

  public static Object div(Object a, double b) {
    return applyDouble(DIV, a, b);
  }

  public static Object mod(Object a, Object b) {
    return apply(MOD, a, b);
  }

  public static Object mod(Object a, long b) {
    return applyLong(MOD, a, b);
  }

  public static Object mod(Object a, double b) {
    return applyDouble(MOD, a, b);
  }

  /** Unary minus. */
  public static Object neg(Object a) {
    if (a instanceof Long) {
      return Math.negateExact((Long) a);
    } else if (a instanceof Double) {
      return -(Double) a;
    } else if (a == null) {
      return null;
    }
    Object n = Values.normalize(a);
    if (n == a) {
      throw Values.typeError("unary '-'", a);
    }
    return neg(n);
  }

  private static Object applyLong(int op, Object a, long b) {
    if (a instanceof Long) {
      return longOp(op, (Long) a, b);
    } else if (a instanceof Double) {
      return doubleOp(op, (Double) a, b);
    }
    return apply(op, a, b);
  }

  private static Object applyDouble(int op, Object a, double b) {
    if (a instanceof Double) {
      return doubleOp(op, (Double) a, b);
    } else if (a instanceof Long) {
      return doubleOp(op, (Long) a, b);
    }
    return apply(op, a, b);
  }

  private static Object apply(int op, Object a, Object b) {
    if (a instanceof Long && b instanceof Long) {
      return longOp(op, (Long) a, (Long) b);
    } else if (a == null || b == null) {
      return null;
    }
    Object x = Values.normalize(a);
    Object y = Values.normalize(b);
    if (x instanceof Long && y instanceof Long) {
      return longOp(op, (Long) x, (Long) y);
    } else if (Values.isNumber(x) && Values.isNumber(y)) {
      return doubleOp(op, ((Number) x).doubleValue(), ((Number) y).doubleValue());
    }
    throw Values.typeError(NAMES[op], a, b);
  }

  static long longOp(int op, long a, long b) {
    switch (op) {
      case ADD:
        return Math.addExact(a, b);
      case SUB:
        return Math.subtractExact(a, b);
      case MUL:
        return Math.multiplyExact(a, b);
      case DIV:
        if (b == 0) {
          throw new EvalException("division by zero");
        } else if (a == Long.MIN_VALUE && b == -1) {
          throw new ArithmeticException("long overflow");
        }
        return a / b;
      default:
        if (b == 0) {
          throw new EvalException("division by zero");
        }
        return a % b;
    }
  }

  static double doubleOp(int op, double a, double b) {
    switch (op) {
      case ADD:
        return a + b;
      case SUB:
        return a - b;
      case MUL:
        return a * b;
      case DIV:
        if (b == 0) {
          throw new EvalException("division by zero");
        }
        return a / b;
      default:
        if (b == 0) {
          throw new EvalException("division by zero");
        }
        return a % b;
    }
  }
}
