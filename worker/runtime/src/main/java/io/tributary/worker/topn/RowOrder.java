package io.tributary.worker.topn;

import io.tributary.plan.TopNPlan.SortKey;
import io.tributary.stream.Record;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The order of a top-N's rows: by its sort keys, then — for rows equal in every key — by their
 * field names and values, so that which rows are kept never depends on arrival order. Values
 * compare numbers numerically (Long and Double alike), strings by UTF-16 code units, false before
 * true; values of different kinds by kind (booleans, numbers, strings, then anything else by its
 * text). Not thread-safe (field positions cached per schema): one instance per operator.
 */
final class RowOrder implements Comparator<Record> {
  private final List<SortKey> keys;

  RowOrder(List<SortKey> keys) {
    this.keys = List.copyOf(keys);
  }

  @Override
  public int compare(Record a, Record b) {
    for (SortKey k : keys) {
      int c = compareKey(a.get(k.field()), b.get(k.field()), k);
      if (c != 0) {
        return c;
      }
    }
    return tieBreak(a, b);
  }

  private static int compareKey(Object x, Object y, SortKey k) {
    if (x == null || y == null) {
      if (x == y) {
        return 0;
      }
      return (x == null) == k.nullsFirst() ? -1 : 1;
    }
    int c = compareValues(x, y);
    return k.descending() ? -c : c;
  }

  /** Every field, by name and then value, nulls first; the timestamp last. */
  private static int tieBreak(Record a, Record b) {
    int n = Math.min(a.schema().size(), b.schema().size());
    for (int i = 0; i < n; i++) {
      int c = a.schema().name(i).compareTo(b.schema().name(i));
      if (c == 0) {
        c = compareNullsFirst(a.values()[i], b.values()[i]);
      }
      if (c != 0) {
        return c;
      }
    }
    int c = Integer.compare(a.schema().size(), b.schema().size());
    return c != 0 ? c : Long.compare(a.timestamp(), b.timestamp());
  }

  private static int compareNullsFirst(Object x, Object y) {
    if (x == null || y == null) {
      return x == y ? 0 : x == null ? -1 : 1;
    }
    return compareValues(x, y);
  }

  static int compareValues(Object x, Object y) {
    int kx = kind(x);
    int ky = kind(y);
    if (kx != ky) {
      return Integer.compare(kx, ky);
    }
    return switch (kx) {
      case 0 -> Boolean.compare((Boolean) x, (Boolean) y);
      case 1 -> compareNumbers((Number) x, (Number) y);
      case 2 -> ((String) x).compareTo((String) y);
      default -> String.valueOf(x).compareTo(String.valueOf(y));
    };
  }

  private static int compareNumbers(Number x, Number y) {
    boolean whole = !(x instanceof Double || x instanceof Float) && !(y instanceof Double || y instanceof Float);
    return whole ? Long.compare(x.longValue(), y.longValue()) : Double.compare(x.doubleValue(), y.doubleValue());
  }

  private static int kind(Object v) {
    if (v instanceof Boolean) {
      return 0;
    }
    if (v instanceof Number) {
      return 1;
    }
    if (v instanceof String) {
      return 2;
    }
    return v instanceof Map || v instanceof List ? 3 : 4;
  }
}
