package io.tributary.expr.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The literal list of {@code x IN (...)}. Numbers match numerically across BIGINT and DOUBLE.
 * Result: TRUE if x equals an element; otherwise NULL if x or an element is NULL; else FALSE. A
 * value of a type that no element has (a VARCHAR tested against numbers) is a type error.
 * Immutable, thread-safe.
 */
public final class InList {
  private final Set<Long> longs = new HashSet<>();
  private final Set<Double> doubles = new HashSet<>();
  private final Set<String> strings = new HashSet<>();
  private final Set<Boolean> booleans = new HashSet<>();
  private final boolean hasNull;

  /** @param values Long, Double, String, Boolean or null elements */
  public InList(List<?> values) {
    boolean nulls = false;
    for (Object v : values) {
      if (v == null) {
        nulls = true;
      } else if (v instanceof Long) {
        longs.add((Long) v);
      } else if (v instanceof Double) {
        doubles.add((Double) v + 0.0);
      } else if (v instanceof String) {
        strings.add((String) v);
      } else {
        booleans.add((Boolean) v);
      }
    }
    this.hasNull = nulls;
  }

  public Boolean contains(Object x) {
    Object v = Values.normalize(x);
    if (v == null) {
      return null;
    }
    boolean found;
    if (v instanceof Long && hasNumbers()) {
      long l = (Long) v;
      found = longs.contains(l) || doubles.contains((double) l);
    } else if (v instanceof Double && hasNumbers()) {
      double d = (Double) v + 0.0;
      found = doubles.contains(d) || (d == Math.rint(d) && Math.abs(d) < 0x1p63 && longs.contains((long) d));
    } else if (v instanceof String && !strings.isEmpty()) {
      found = strings.contains(v);
    } else if (v instanceof Boolean && !booleans.isEmpty()) {
      found = booleans.contains(v);
    } else if (longs.isEmpty() && doubles.isEmpty() && strings.isEmpty() && booleans.isEmpty()) {
      found = false;
    } else {
      throw Values.typeError("IN", v);
    }
    if (found) {
      return Boolean.TRUE;
    }
    return hasNull ? null : Boolean.FALSE;
  }

  private boolean hasNumbers() {
    return !longs.isEmpty() || !doubles.isEmpty();
  }
}
