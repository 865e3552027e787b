package io.tributary.bench;

import io.tributary.connectors.nexmark.NexmarkGenerator;
import io.tributary.connectors.nexmark.NexmarkIds;
import io.tributary.connectors.nexmark.NexmarkKind;
import java.util.HashMap;
import java.util.Map;

/**
 * The yardstick: bids per auction in 10 s tumbling windows computed by a plain single-threaded loop
 * with no framework, over the same generated bids as the benchmark.
 */
final class PlainLoop {
  private static final long WINDOW = 10_000;

  private PlainLoop() {}

  /** Result of one loop run. */
  record Result(long events, long windowResults, long countSum, double seconds) {
    double eventsPerSecond() {
      return events / seconds;
    }
  }

  static Result keyedTumblingCount(long events, long seed) {
    NexmarkGenerator gen = new NexmarkGenerator(seed, 10_000);
    long start = System.nanoTime();
    Map<Long, long[]> counts = new HashMap<>();
    long windowStart = Long.MIN_VALUE;
    long results = 0;
    long sum = 0;
    for (long i = 0; i < events; i++) {
      Object[] bid = gen.bid(NexmarkIds.eventNumber(NexmarkKind.BID, i));
      long ts = (Long) bid[5];
      long ws = ts - Math.floorMod(ts, WINDOW);
      if (ws != windowStart) {
        // bids come in event-time order: the previous window is complete
        for (long[] c : counts.values()) {
          results++;
          sum += c[0];
        }
        counts.clear();
        windowStart = ws;
      }
      counts.computeIfAbsent((Long) bid[0], k -> new long[1])[0]++;
    }
    for (long[] c : counts.values()) {
      results++;
      sum += c[0];
    }
    return new Result(events, results, sum, (System.nanoTime() - start) / 1e9);
  }
}
