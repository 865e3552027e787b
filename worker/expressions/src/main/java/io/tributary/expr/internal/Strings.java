package io.tributary.expr.internal;

import java.util.Locale;

/**
 * String functions for generated code. Operands must be VARCHAR (or NULL, which propagates);
 * lengths and positions count UTF-16 code units, positions are 1-based as in SQL.
 */
public final class Strings {
  private Strings() {}

  static String str(Object v, String where) {
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw new EvalException(where + " needs a VARCHAR, got " + Values.describe(v));
  }

  /** {@code a || b} and CONCAT: NULL if either is NULL. */
  public static String concat(Object a, Object b) {
    String x = str(a, "'||'");
    String y = str(b, "'||'");
    return x == null || y == null ? null : x.concat(y);
  }

  public static String upper(Object a) {
    String s = str(a, "UPPER");
    return s == null ? null : s.toUpperCase(Locale.ROOT);
  }

  public static String lower(Object a) {
    String s = str(a, "LOWER");
    return s == null ? null : s.toLowerCase(Locale.ROOT);
  }

  public static Long charLength(Object a) {
    String s = str(a, "CHAR_LENGTH");
    return s == null ? null : (long) s.length();
  }

  /** {@code SUBSTRING(s FROM start)}. */
  public static String substring(Object s, Object start) {
    String x = str(s, "SUBSTRING");
    Long from = Funcs.integer(start, "SUBSTRING position");
    if (x == null || from == null) {
      return null;
    }
    return x.substring((int) Math.min(Math.max(from - 1, 0), x.length()));
  }

  /** {@code SUBSTRING(s FROM start FOR length)}; a negative length is an error. */
  public static String substring(Object s, Object start, Object length) {
    String x = str(s, "SUBSTRING");
    Long from = Funcs.integer(start, "SUBSTRING position");
    Long len = Funcs.integer(length, "SUBSTRING length");
    if (x == null || from == null || len == null) {
      return null;
    } else if (len < 0) {
      throw new EvalException("SUBSTRING length must not be negative, got " + len);
    }
    long begin = Math.min(Math.max(from - 1, 0), x.length());
    long end = Math.min(Math.max(from - 1 + len, begin), x.length());
    return x.substring((int) begin, (int) end);
  }

  /** {@code TRIM([BOTH|LEADING|TRAILING] chars FROM s)}: removes any of {@code chars}. */
  public static String trim(Object s, Object chars, boolean leading, boolean trailing) {
    String x = str(s, "TRIM");
    String c = str(chars, "TRIM");
    if (x == null || c == null) {
      return null;
    }
    int begin = 0;
    int end = x.length();
    while (leading && begin < end && c.indexOf(x.charAt(begin)) >= 0) {
      begin++;
    }
    while (trailing && end > begin && c.indexOf(x.charAt(end - 1)) >= 0) {
      end--;
    }
    return x.substring(begin, end);
  }

  /** {@code s LIKE pattern} with a pattern compiled in advance. */
  public static Boolean like(Object s, LikePattern pattern) {
    String x = str(s, "LIKE");
    return x == null ? null : Logic.of(pattern.matches(x));
  }

  /** {@code s LIKE pattern [ESCAPE escape]} with a pattern computed per record. */
  public static Boolean like(Object s, Object pattern, Object escape) {
    String x = str(s, "LIKE");
    String p = str(pattern, "LIKE");
    String e = str(escape, "ESCAPE");
    if (x == null || p == null) {
      return null;
    }
    try {
      return Logic.of(LikePattern.compile(p, e).matches(x));
    } catch (IllegalArgumentException ex) {
      throw new EvalException(ex.getMessage());
    }
  }
}
