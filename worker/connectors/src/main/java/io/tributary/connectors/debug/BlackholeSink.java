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
  private final double perSubtask;

  public BlackholeSink(String sinkId) {
    this(sinkId, 0);
  }

  /** @param recordsPerSecond the most records a second the sink takes; 0: no limit */
  public BlackholeSink(String sinkId, double recordsPerSecond) {
    this(sinkId, recordsPerSecond, 0);
  }

  /**
   * @param recordsPerSecond the most records a second the sink takes, all subtasks together; 0: no limit
   * @param perSubtask the most records a second each subtask takes (a downstream whose capacity grows
   *     with its parallelism); 0: no limit
   */
  public BlackholeSink(String sinkId, double recordsPerSecond, double perSubtask) {
    this.counter = COUNTERS.computeIfAbsent(sinkId, id -> new LongAdder());
    this.recordsPerSecond = recordsPerSecond;
    this.perSubtask = perSubtask;
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
    double shared = recordsPerSecond / parallelism;
    double perWriter = shared > 0 && perSubtask > 0 ? Math.min(shared, perSubtask) : Math.max(shared, perSubtask);
    long interval = perWriter > 0 ? (long) (1e9 / perWriter) : 0;
    return new SinkWriter() {
      /** When the next record may go; never more than a tenth of a second of unused capacity behind. */
      private long due = System.nanoTime();

      @Override
      public void write(Record record) {
        counter.increment();
        if (interval > 0) {
          long now = System.nanoTime();
          due = Math.max(due, now - 100_000_000L) + interval;
          long wait = due - now;
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
