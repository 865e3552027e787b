package io.tributary.worker.aggregate;

import io.tributary.expr.ExpressionException;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.AggregatePlan.Function;
import io.tributary.stream.Record;
import io.tributary.worker.state.ValueCodec;
import java.util.List;

/**
 * The incremental aggregates of a window or group aggregate: count(*), count(expr),
 * count(DISTINCT expr), sum, min, max, avg.
 *
 * <p>Nulls are ignored (count(expr) counts non-null values, count(DISTINCT expr) distinct non-null
 * values, numbers compared as Long or Double). sum, min and max stay Long while
 * every input of the window is a whole number and become Double otherwise (also when a long sum
 * would overflow); avg is always Double. Over no input, the counts are 0 and the others are null.
 *
 * <p>A record is handled in two steps so that a bad record changes nothing: {@link #evaluate}
 * reads every argument into a scratch array (throwing {@link ExpressionException} on an error or
 * a non-numeric input to a numeric aggregate), then {@link #addTo} adds the scratch values to as
 * many accumulators as the record has windows.
 */
public final class Aggregates {
  private final Function[] functions;
  private final Argument[] arguments;
  private final String[] texts;
  private final Object[] scratch;

  public Aggregates(List<AggregatePlan> plans) {
    int n = plans.size();
    functions = new Function[n];
    arguments = new Argument[n];
    texts = new String[n];
    scratch = new Object[n];
    for (int i = 0; i < n; i++) {
      AggregatePlan p = plans.get(i);
      functions[i] = p.function();
      texts[i] = p.function() == Function.COUNT_DISTINCT ? "count(DISTINCT " + p.argument() + ")"
          : p.function().name().toLowerCase() + "(" + (p.argument() == null ? "*" : p.argument()) + ")";
      if (p.argument() != null) {
        arguments[i] = Argument.of(p.argument());
      } else if (p.function() != Function.COUNT) {
        throw new IllegalArgumentException(texts[i] + " needs an argument (aggregate '" + p.name() + "')");
      }
    }
  }

  public int size() {
    return functions.length;
  }

  public Accumulator newAccumulator() {
    return new Accumulator(functions.length);
  }

  /** Reads every argument of {@code record}; the values stay until the next call. */
  public void evaluate(Record record) {
    for (int i = 0; i < arguments.length; i++) {
      Object v = arguments[i] == null ? Boolean.TRUE : arguments[i].read(record);
      if (v != null && functions[i] != Function.COUNT && functions[i] != Function.COUNT_DISTINCT
          && !(v instanceof Number)) {
        throw new ExpressionException(texts[i] + ": '" + v + "' is not a number");
      }
      scratch[i] = v;
    }
  }

  /** Adds the values of the last {@link #evaluate} to {@code acc}. */
  public void addTo(Accumulator acc) {
    for (int i = 0; i < scratch.length; i++) {
      Object v = scratch[i];
      if (v == null) {
        continue;
      }
      switch (functions[i]) {
        case COUNT -> acc.addCount(i, 1);
        case COUNT_DISTINCT -> acc.distinct(i).add(ValueCodec.normalized(v));
        case SUM, AVG -> addSum(acc, i, (Number) v);
        case MIN -> addExtreme(acc, i, (Number) v, true);
        case MAX -> addExtreme(acc, i, (Number) v, false);
        default -> throw new IllegalStateException(functions[i].name());
      }
    }
  }

  /**
   * Takes the values of the last {@link #evaluate} out of {@code acc}, which counted them before;
   * for count, sum and avg only ({@link Function#retracts}). A slot left without values is as new.
   */
  public void retractFrom(Accumulator acc) {
    for (int i = 0; i < scratch.length; i++) {
      Object v = scratch[i];
      if (v == null) {
        continue;
      }
      switch (functions[i]) {
        case COUNT -> acc.addCount(i, -1);
        case SUM, AVG -> retractSum(acc, i, (Number) v);
        default -> throw new IllegalStateException(texts[i] + " cannot retract");
      }
    }
  }

  private static void retractSum(Accumulator acc, int i, Number v) {
    if (acc.addCount(i, -1) == 0) {
      acc.setLong(i, 0);
      return;
    }
    if (isWhole(v) && !acc.inDouble(i)) {
      long old = acc.longValue(i);
      long sum = old - v.longValue();
      if (((old ^ v.longValue()) & (old ^ sum)) >= 0) {
        acc.setLong(i, sum);
        return;
      }
    }
    acc.toDouble(i);
    acc.setDouble(i, acc.doubleValue(i) - v.doubleValue());
  }

  private static void addSum(Accumulator acc, int i, Number v) {
    acc.addCount(i, 1);
    if (isWhole(v) && !acc.inDouble(i)) {
      long old = acc.longValue(i);
      long sum = old + v.longValue();
      if (((old ^ sum) & (v.longValue() ^ sum)) >= 0) {
        acc.setLong(i, sum);
        return;
      }
    }
    acc.toDouble(i);
    acc.setDouble(i, acc.doubleValue(i) + v.doubleValue());
  }

  private static void addExtreme(Accumulator acc, int i, Number v, boolean min) {
    boolean first = acc.addCount(i, 1) == 1;
    if (isWhole(v) && !acc.inDouble(i)) {
      long x = v.longValue();
      long old = acc.longValue(i);
      acc.setLong(i, first ? x : min ? Math.min(old, x) : Math.max(old, x));
      return;
    }
    double x = v.doubleValue();
    if (first) {
      acc.setDouble(i, x);
    } else {
      acc.toDouble(i);
      double old = acc.doubleValue(i);
      acc.setDouble(i, min ? Math.min(old, x) : Math.max(old, x));
    }
  }

  /** Adds everything {@code from} counted into {@code into} (session merging). */
  public void mergeInto(Accumulator into, Accumulator from) {
    for (int i = 0; i < functions.length; i++) {
      if (functions[i] == Function.COUNT_DISTINCT) {
        if (from.distinct != null && from.distinct[i] != null) {
          into.distinct(i).addAll(from.distinct[i]);
        }
        continue;
      }
      if (from.count(i) == 0) {
        continue;
      }
      Number value = from.inDouble(i) ? (Number) from.doubleValue(i) : (Number) from.longValue(i);
      switch (functions[i]) {
        case COUNT -> {
          into.addCount(i, from.count(i));
          continue;
        }
        case SUM, AVG -> addSum(into, i, value);
        case MIN -> addExtreme(into, i, value, true);
        case MAX -> addExtreme(into, i, value, false);
        default -> throw new IllegalStateException(functions[i].name());
      }
      into.addCount(i, from.count(i) - 1); // the add above counted one input
    }
  }

  /** Writes the result of every aggregate of {@code acc} to {@code out} from {@code offset}. */
  public void results(Accumulator acc, Object[] out, int offset) {
    for (int i = 0; i < functions.length; i++) {
      out[offset + i] = result(acc, i);
    }
  }

  private Object result(Accumulator acc, int i) {
    long n = acc.count(i);
    if (functions[i] == Function.COUNT) {
      return n;
    }
    if (functions[i] == Function.COUNT_DISTINCT) {
      return acc.distinct == null || acc.distinct[i] == null ? 0L : (long) acc.distinct[i].size();
    }
    if (n == 0) {
      return null;
    }
    if (functions[i] == Function.AVG) {
      return (acc.inDouble(i) ? acc.doubleValue(i) : (double) acc.longValue(i)) / n;
    }
    return acc.inDouble(i) ? (Object) acc.doubleValue(i) : (Object) acc.longValue(i);
  }

  private static boolean isWhole(Number v) {
    return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
  }
}
