package io.tributary.connect.internal;

import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.stream.Record;
import java.util.function.LongFunction;

/**
 * Reads a {@link GeneratorSplit}: emits {@code generator.apply(n)} for the split's sequence
 * numbers {@code n} below {@code limit} ({@code Long.MAX_VALUE}: unbounded).
 */
public final class GeneratorReader implements SplitReader {
  private final LongFunction<Record> generator;
  private final long step;
  private final long limit;
  private long next;

  public GeneratorReader(GeneratorSplit split, long limit, LongFunction<Record> generator) {
    this.generator = generator;
    this.step = split.count();
    this.limit = limit;
    this.next = split.index();
  }

  @Override
  public int read(SplitOutput out, int max) {
    if (next >= limit) {
      return END;
    }
    int n = 0;
    while (n < max && next < limit) {
      out.record(generator.apply(next));
      next += step;
      n++;
    }
    return n;
  }

  /** The next sequence number this reader will emit. */
  public long nextIndex() {
    return next;
  }

  @Override
  public void close() {}
}
