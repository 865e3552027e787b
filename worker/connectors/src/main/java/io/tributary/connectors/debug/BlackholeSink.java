package io.tributary.connectors.debug;

import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Discards records and counts them: per sink id in this JVM ({@link #count(String)}), for tests
 * and benchmarks. Writers of the same sink id share one counter. With a rate, the sink takes at
 * most that many records a second (shared by its subtasks): a slow downstream, for load and
 * backpressure tests.
 */
public final class BlackholeSink implements SinkConnector {
  private static final Map<String, LongAdder> COUNTERS = new ConcurrentHashMap<>();

  private final LongAdder counter;
  private final double recordsPerSecond;

  public BlackholeSink(String sinkId) {
    this(sinkId, 0);
  }

  /** @param recordsPerSecond the most records a second the sink takes; 0: no limit */
  public BlackholeSink(String sinkId, double recordsPerSecond) {
    this.counter = COUNTERS.computeIfAbsent(sinkId, id -> new LongAdder());
    this.recordsPerSecond = recordsPerSecond;
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
    double perWriter = recordsPerSecond / parallelism;
    return new SinkWriter() {
      private final long start = System.nanoTime();
      private long written;

      @Override
      public void write(Record record) {
        counter.increment();
        written++;
        if (perWriter > 0) {
          long due = start + (long) (written * 1e9 / perWriter);
          long wait = due - System.nanoTime();
          if (wait > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(wait); // a slow downstream holds the task
          }
        }
      }

      @Override
      public void commit() {}

      @Override
      public void close() {}
    };
  }
}
