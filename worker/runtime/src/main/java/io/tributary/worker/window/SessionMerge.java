package io.tributary.worker.window;

import java.util.ArrayList;
import java.util.List;

/**
 * What a record at {@code ts} does to a key's sessions of gap {@code gap}: the sessions its
 * {@code [ts, ts + gap)} touches, and the one session they and it merge into (the record's own
 * when it touches none). Window aggregates and window joins merge sessions alike.
 *
 * @param touched the existing sessions that merge (maybe none)
 * @param merged the session they become
 */
public record SessionMerge(List<TimeWindow> touched, TimeWindow merged) {
  /** The merge of the record at {@code ts} into {@code sessions}. */
  public static SessionMerge of(long ts, long gap, Iterable<TimeWindow> sessions) {
    TimeWindow candidate = new TimeWindow(ts, saturatedAdd(ts, gap));
    List<TimeWindow> touched = new ArrayList<>(2);
    long start = candidate.start();
    long end = candidate.end();
    for (TimeWindow w : sessions) {
      if (w.intersects(candidate)) {
        touched.add(w);
        start = Math.min(start, w.start());
        end = Math.max(end, w.end());
      }
    }
    return new SessionMerge(touched, new TimeWindow(start, end));
  }

  /** Whether the record only falls into one existing session, which it does not extend. */
  public boolean intoOneAsItIs() {
    return touched.size() == 1 && touched.get(0).equals(merged);
  }

  /** {@code a + b}, or {@link Long#MAX_VALUE} where that overflows. */
  static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
