package io.tributary.scheduler.observe;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The records waiting outside a running job for each of its sources (a Kafka topic's end offsets
 * minus the positions of the job's latest checkpoint), as the control plane asks the external
 * systems now and then, and how fast that grows: the autoscaler adds the growth to a source's
 * target rate, and drains the backlog within its catch-up time.
 *
 * <p>The positions are those of the latest completed checkpoint, so a backlog counts also what the
 * job read since then (at most the rate times the checkpoint interval); the growth, taken over up
 * to {@link #SLOPE_WINDOW} of observations, is the topic's write rate minus the job's read rate.
 * Thread-safe.
 */
public final class SourceBacklogs {
  /** The longest span of observations the growth is measured over. */
  static final Duration SLOPE_WINDOW = Duration.ofSeconds(60);

  /** What waits for one source. */
  public record Backlog(long records, double growthPerSecond) {}

  private record Observation(Instant at, long records) {}

  private final Map<String, Deque<Observation>> bySource = new HashMap<>();

  /** Source {@code sourceId} had {@code records} waiting at {@code at}. */
  public synchronized void observe(String sourceId, long records, Instant at) {
    Deque<Observation> d = bySource.computeIfAbsent(sourceId, k -> new ArrayDeque<>());
    if (!d.isEmpty() && at.isBefore(d.peekLast().at())) {
      d.clear(); // the clock went back: start over
    }
    d.addLast(new Observation(at, Math.max(0, records)));
    while (d.size() > 2 && Duration.between(d.peekFirst().at(), at).compareTo(SLOPE_WINDOW) > 0) {
      d.removeFirst();
    }
  }

  /** Every source's latest backlog and its growth (0 until two observations span some time). */
  public synchronized Map<String, Backlog> current() {
    Map<String, Backlog> out = new HashMap<>();
    bySource.forEach((id, d) -> {
      Observation last = d.peekLast();
      Observation first = d.peekFirst();
      double seconds = Duration.between(first.at(), last.at()).toMillis() / 1000.0;
      double growth = seconds > 0 ? (last.records() - first.records()) / seconds : 0;
      out.put(id, new Backlog(last.records(), growth));
    });
    return out;
  }

  /** Forgets everything: a new attempt starts from other positions. */
  public synchronized void clear() {
    bySource.clear();
  }
}
