package io.tributary.connectors.internal;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.stream.Record;
import java.util.function.LongFunction;

/**
 * Reads a {@link GeneratorSplit}: emits {@code generator.apply(n)} for the split's sequence
 * numbers {@code n} below {@code limit} ({@code Long.MAX_VALUE}: unbounded); with {@link #paceBy},
 * each when the wall clock reaches its event time.
 *
 * <p>Its {@link #position()} is the next sequence number it will emit (a member of the split, or
 * past {@code limit} once ended), in decimal; {@link #resume} continues exactly there.
 */
public final class GeneratorReader implements SplitReader {
  private final LongFunction<Record> generator;
  private final long step;
  private final long limit;
  private long next;
  /** With {@link #paceBy}: the wall clock, and each sequence number's event time. */
  private java.util.function.LongSupplier clock;
  private java.util.function.LongUnaryOperator eventTime;

  public GeneratorReader(GeneratorSplit split, long limit, LongFunction<Record> generator) {
    this(split, split.index(), limit, generator);
  }

  private GeneratorReader(GeneratorSplit split, long next, long limit, LongFunction<Record> generator) {
    this.generator = generator;
    this.step = split.count();
    this.limit = limit;
    this.next = next;
  }

  /**
   * A reader of {@code split} resuming at {@code position}, a value {@link #position()} of a reader
   * of the same split returned; null means from the start.
   *
   * @throws ConnectorException if {@code position} is not a sequence number of {@code split}
   */
  public static GeneratorReader resume(
      GeneratorSplit split, String position, long limit, LongFunction<Record> generator) {
    if (position == null) {
      return new GeneratorReader(split, limit, generator);
    }
    long next;
    try {
      next = Long.parseLong(position.trim());
    } catch (NumberFormatException e) {
      throw badPosition(split, position, "not a whole number");
    }
    if (next < split.index() || (next - split.index()) % split.count() != 0) {
      throw badPosition(split, position,
          "not a sequence number of this split (" + split.index() + " + k * " + split.count() + ")");
    }
    return new GeneratorReader(split, next, limit, generator);
  }

  private static ConnectorException badPosition(GeneratorSplit split, String position, String why) {
    return new ConnectorException("split '" + split.id() + "': cannot resume at position '" + position
        + "': " + why + "; was the checkpoint taken with a different parallelism or source?");
  }

  /**
   * Emits a record no earlier than {@code clock} reaches its event time ({@code eventTime} of its
   * sequence number): a generator that started at the wall clock's time then keeps pace with it,
   * whatever the mix of its records or its rate limit. A reader behind the clock (restored after a
   * stop) emits as fast as it may until it catches up.
   */
  public GeneratorReader paceBy(java.util.function.LongSupplier clock,
      java.util.function.LongUnaryOperator eventTime) {
    this.clock = clock;
    this.eventTime = eventTime;
    return this;
  }

  @Override
  public int read(SplitOutput out, int max) {
    if (next >= limit) {
      return END;
    }
    long now = clock == null ? Long.MAX_VALUE : clock.getAsLong();
    int n = 0;
    while (n < max && next < limit && (clock == null || eventTime.applyAsLong(next) <= now)) {
      out.record(generator.apply(next));
      next += step;
      n++;
    }
    return n;
  }

  @Override
  public String position() {
    return Long.toString(next);
  }

  /** The next sequence number this reader will emit. */
  public long nextIndex() {
    return next;
  }

  @Override
  public void close() {}
}
