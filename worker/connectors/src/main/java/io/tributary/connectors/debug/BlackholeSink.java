package io.tributary.connectors.debug;

import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Discards records and counts them: per sink id in this JVM ({@link #count(String)}), for tests
 * and benchmarks. Writers of the same sink id share one counter.
 */
public final class BlackholeSink implements SinkConnector {
  private static final Map<String, LongAdder> COUNTERS = new ConcurrentHashMap<>();

  private final LongAdder counter;

  public BlackholeSink(String sinkId) {
    this.counter = COUNTERS.computeIfAbsent(sinkId, id -> new LongAdder());
  }

  /** Records written so far (committed or not) to blackhole sinks with this id. */
  public static long count(String sinkId) {
    LongAdder c = COUNTERS.get(sinkId);
    return c == null ? 0 : c.sum();
  }

  /** Sets the count of this id back to 0. */
  public static void reset(String sinkId) {
    LongAdder c = COUNTERS.get(sinkId);
    if (c != null) {
      c.reset();
    }
  }

  @Override
  public SinkWriter open(int subtaskIndex, int parallelism) {
    return new SinkWriter() {
      @Override
      public void write(Record record) {
        counter.increment();
      }

      @Override
      public void commit() {}

      @Override
      public void close() {}
    };
  }
}
