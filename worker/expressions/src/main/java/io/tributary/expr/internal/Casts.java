package io.tributary.expr.internal;

/**
 * CAST for generated code. DOUBLE to BIGINT truncates toward zero; VARCHAR is parsed after
 * trimming; BOOLEAN converts to 1/0 and from 'true'/'false' (any case) or a number (non-zero is
 * TRUE); INTEGER is a BIGINT checked to fit 32 bits. A value that cannot be converted throws
 * {@link EvalException}. NULL stays NULL.
 */
public final class Casts {
  private Casts() {}

  public static Long toBigint(Object v) {
    Object n = Values.normalize(v);
    if (n == null || n instanceof Long) {
      return (Long) n;
    } else if (n instanceof Double) {
      double d = (Double) n;
      if (Double.isNaN(d) || Math.abs(d) >= 0x1p63) {
        throw fail(v, "BIGINT");
      }
      return (long) d;
    } else if (n instanceof Boolean) {
      return (Boolean) n ? 1L : 0L;
    } else if (n instanceof String) {
      try {
        return Long.parseLong(((String) n).trim());
      } catch (NumberFormatException e) {
        throw fail(v, "BIGINT");
      }
    }
    throw fail(v, "BIGINT");
  }

  public static Long toInteger(Object v) {
    Long l = toBigint(v);
    if (l != null && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
      throw fail(v, "INTEGER");
    }
    return l;
  }

  public static Double toDouble(Object v) {
    Object n = Values.normalize(v);
    if (n == null || n instanceof Double) {
      return (Double) n;
    } else if (n instanceof Long) {
      return ((Long) n).doubleValue();
    } else if (n instanceof Boolean) {
      return (Boolean) n ? 1.0 : 0.0;
    } else if (n instanceof String) {
      try {
        return Double.parseDouble(((String) n).trim());
      } catch (NumberFormatException e) {
        throw fail(v, "DOUBLE");
      }
    }
    throw fail(v, "DOUBLE");
  }

  public static String toVarchar(Object v) {
    Object n = Values.normalize(v);
    if (n == null || n instanceof String) {
      return (String) n;
    } else if (n instanceof Boolean) {
      return (Boolean) n ? "TRUE" : "FALSE";
    } else if (n instanceof Long || n instanceof Double) {
      return n.toString();
    }
    throw fail(v, "VARCHAR");
  }

  public static Boolean toBoolean(Object v) {
    Object n = Values.normalize(v);
    if (n == null || n instanceof Boolean) {
      return n == null ? null : Logic.of((Boolean) n);
    } else if (n instanceof Long) {
      return Logic.of((Long) n != 0);
    } else if (n instanceof Double) {
      return Logic.of((Double) n != 0);
    } else if (n instanceof String) {
      String s = ((String) n).trim();
      if (s.equalsIgnoreCase("true")) {
        return Boolean.TRUE;
      } else if (s.equalsIgnoreCase("false")) {
        return Boolean.FALSE;
      }
    }
    throw fail(v, "BOOLEAN");
  }

  private static EvalException fail(Object v, String type) {
    return new EvalException("cannot cast " + Values.describe(v) + " to " + type);
  }
}
