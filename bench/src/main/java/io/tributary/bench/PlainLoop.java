package io.tributary.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * The yardstick: a keyed 10 s tumbling window computed by a plain single-threaded loop with no
 * framework, over records generated beforehand ({@link GeneratedInput#columns}), so that only the
 * window's work is timed. It does what the {@code count} and {@code keyed-window} queries do per
 * record: find the key's accumulator for the record's window (a new one for the key's first record
 * in the window), add to it; and when a window ends (records come in event-time order), build one
 * result row per key ({@code key, window_start, window_end, count[, sum]}, as the window operator's
 * results) and hand it on. No exchange, no state backend, no timers, no watermarks.
 */
final class PlainLoop {
  private static final long WINDOW = 10_000;
  /** Where rows are handed on (so they are really built): the last few are kept. */
  private static final Object[][] HANDED_ON = new Object[64][];

  private PlainLoop() {}

  /** Result of one loop run: its figures, the rows it made and the sum of their counts. */
  record Result(long events, long windowResults, long countSum, double seconds, double cpuSeconds) {
    double eventsPerSecond() {
      return events / seconds;
    }

    /** Process CPU seconds per million records. */
    double cpuPerMillion() {
      return cpuSeconds * 1e6 / events;
    }
  }

  /** A window's accumulator: count and sum. */
  private static final class Acc {
    long count;
    double sum;
  }

  /** Counts (and sums, when {@code in} has values) per key in 10 s tumbling windows; measured. */
  static Result keyedTumbling(GeneratedInput.Columns in) {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long start = System.nanoTime();
    Map<Long, Acc> open = new HashMap<>();
    long windowStart = Long.MIN_VALUE;
    long[] sink = new long[2]; // rows, sum of counts
    for (int i = 0; i < in.size(); i++) {
      long ts = in.times()[i];
      long ws = ts - Math.floorMod(ts, WINDOW);
      if (ws != windowStart) {
        fire(open, windowStart, in.values() != null, sink);
        windowStart = ws;
      }
      Acc acc = open.computeIfAbsent(in.keys()[i], k -> new Acc());
      acc.count++;
      if (in.values() != null) {
        acc.sum += in.values()[i];
      }
    }
    fire(open, windowStart, in.values() != null, sink);
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
    return new Result(in.size(), sink[0], sink[1], seconds, cpu);
  }

  /** Emits a row per key of the window that ended, then forgets the window. */
  private static void fire(Map<Long, Acc> open, long windowStart, boolean withSum, long[] sink) {
    for (Map.Entry<Long, Acc> e : open.entrySet()) {
      Acc acc = e.getValue();
      Object[] row = withSum
          ? new Object[] {e.getKey(), windowStart, windowStart + WINDOW, acc.count, acc.sum}
          : new Object[] {e.getKey(), windowStart, windowStart + WINDOW, acc.count};
      HANDED_ON[(int) (sink[0]++ & 63)] = row;
      sink[1] += acc.count;
    }
    open.clear();
  }
}
