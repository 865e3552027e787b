package io.tributary.bench.flink;

import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.streaming.api.functions.windowing.AllWindowFunction;
import org.apache.flink.streaming.api.functions.windowing.WindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The window aggregates of the Flink queries and the result rows they make: what a Tributary window
 * result holds ({@code key, window_start, window_end}, the aggregates).
 */
final class Results {
  private Results() {}

  /** A keyed window's result. */
  public static final class Keyed {
    public long key;
    public long windowStart;
    public long windowEnd;
    public long count;
    public double sum;

    /** For Flink's POJO serializer. */
    public Keyed() {}

    Keyed(long key, TimeWindow w, long count, double sum) {
      this.key = key;
      this.windowStart = w.getStart();
      this.windowEnd = w.getEnd();
      this.count = count;
      this.sum = sum;
    }
  }

  /** A global (non-keyed) window's result. */
  public static final class Global {
    public long windowStart;
    public long windowEnd;
    public long max;

    /** For Flink's POJO serializer. */
    public Global() {}

    Global(TimeWindow w, long max) {
      this.windowStart = w.getStart();
      this.windowEnd = w.getEnd();
      this.max = max;
    }
  }

  /** {@code count(*)} and {@code sum(value)}, the accumulator of {@code keyed-window}. */
  public static final class CountSum {
    public long count;
    public double sum;

    /** For Flink's POJO serializer. */
    public CountSum() {}
  }

  /** {@code count(*)}. */
  static final class Count<T> implements AggregateFunction<T, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(T value, Long acc) {
      return acc + 1;
    }

    @Override
    public Long getResult(Long acc) {
      return acc;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  /** {@code count(*)} and {@code sum(value)} over (key, value) pairs. */
  static final class CountAndSum implements AggregateFunction<KeyValue, CountSum, CountSum> {
    @Override
    public CountSum createAccumulator() {
      return new CountSum();
    }

    @Override
    public CountSum add(KeyValue value, CountSum acc) {
      acc.count++;
      acc.sum += value.value;
      return acc;
    }

    @Override
    public CountSum getResult(CountSum acc) {
      return acc;
    }

    @Override
    public CountSum merge(CountSum a, CountSum b) {
      a.count += b.count;
      a.sum += b.sum;
      return a;
    }
  }

  /** {@code count(*)} and {@code max(value)}, the accumulator of {@code keyed-sliding}. */
  public static final class CountMax {
    public long count;
    public double max = Double.NEGATIVE_INFINITY;

    /** For Flink's POJO serializer. */
    public CountMax() {}
  }

  /** {@code count(*)} and {@code max(value)} over (key, value) pairs. */
  static final class CountAndMax implements AggregateFunction<KeyValue, CountMax, CountMax> {
    @Override
    public CountMax createAccumulator() {
      return new CountMax();
    }

    @Override
    public CountMax add(KeyValue value, CountMax acc) {
      acc.count++;
      acc.max = Math.max(acc.max, value.value);
      return acc;
    }

    @Override
    public CountMax getResult(CountMax acc) {
      return acc;
    }

    @Override
    public CountMax merge(CountMax a, CountMax b) {
      a.count += b.count;
      a.max = Math.max(a.max, b.max);
      return a;
    }
  }

  /** {@code max(x)}. */
  static final class Max implements AggregateFunction<Long, Long, Long> {
    @Override
    public Long createAccumulator() {
      return Long.MIN_VALUE;
    }

    @Override
    public Long add(Long value, Long acc) {
      return Math.max(value, acc);
    }

    @Override
    public Long getResult(Long acc) {
      return acc;
    }

    @Override
    public Long merge(Long a, Long b) {
      return Math.max(a, b);
    }
  }

  /** The row of a keyed count. */
  static final class KeyedCount implements WindowFunction<Long, Keyed, Long, TimeWindow> {
    @Override
    public void apply(Long key, TimeWindow w, Iterable<Long> counts, Collector<Keyed> out) {
      out.collect(new Keyed(key, w, counts.iterator().next(), 0));
    }
  }

  /** The row of a keyed count and sum. */
  static final class KeyedCountSum implements WindowFunction<CountSum, Keyed, Long, TimeWindow> {
    @Override
    public void apply(Long key, TimeWindow w, Iterable<CountSum> accs, Collector<Keyed> out) {
      CountSum acc = accs.iterator().next();
      out.collect(new Keyed(key, w, acc.count, acc.sum));
    }
  }

  /** The row of a keyed count and max (the max in the row's {@code sum}: a row holds one value). */
  static final class KeyedCountMax implements WindowFunction<CountMax, Keyed, Long, TimeWindow> {
    @Override
    public void apply(Long key, TimeWindow w, Iterable<CountMax> accs, Collector<Keyed> out) {
      CountMax acc = accs.iterator().next();
      out.collect(new Keyed(key, w, acc.count, acc.max));
    }
  }

  /** The row of a global max. */
  static final class GlobalMax implements AllWindowFunction<Long, Global, TimeWindow> {
    @Override
    public void apply(TimeWindow w, Iterable<Long> maxes, Collector<Global> out) {
      out.collect(new Global(w, maxes.iterator().next()));
    }
  }
}
