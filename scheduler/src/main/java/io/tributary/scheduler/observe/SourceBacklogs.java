package io.tributary.scheduler.observe;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What waits outside a running job for each of its sources, as the control plane asks the external
 * systems now and then: the records beyond the positions of the job's latest checkpoint (a Kafka
 * topic's end offsets minus them), and the rate at which records are written to the source (the
 * growth of the end offsets, exact whatever the checkpoints). The autoscaler takes the write rate
 * as what a source must keep up with, and drains the backlog within its catch-up time.
 *
 * <p>Because the positions are those of the latest completed checkpoint, a backlog also counts
 * what the job read since then: at most its rate times the checkpoint interval. Thread-safe.
 */
public final class SourceBacklogs {
  /** The longest span of observations the write rate is measured over. */
  static final Duration RATE_WINDOW = Duration.ofSeconds(15);

  /**
   * What waits for one source.
   *
   * @param records the latest backlog
   * @param writtenPerSecond records written to the source per second, over up to {@link
   *     #RATE_WINDOW}; empty until two observations span some time
   * @param splits the source's number of splits at the latest observation (a Kafka topic's
   *     partitions), 0 when it cannot tell
   */
  public record Backlog(long records, OptionalDouble writtenPerSecond, int splits) {}

  private record Observation(Instant at, long pending, long written, int splits) {}

  private final Map<String, Deque<Observation>> bySource = new HashMap<>();

  /**
   * Source {@code sourceId} had {@code pending} records waiting, {@code written} ever, and {@code
   * splits} splits (0: it cannot tell) at {@code at}.
   */
  public synchronized void observe(String sourceId, long pending, long written, int splits, Instant at) {
    Deque<Observation> d = bySource.computeIfAbsent(sourceId, k -> new ArrayDeque<>());
    if (!d.isEmpty() && (at.isBefore(d.peekLast().at()) || written < d.peekLast().written())) {
      d.clear(); // the clock went back, or the topic was recreated: start over
    }
    d.addLast(new Observation(at, Math.max(0, pending), written, Math.max(0, splits)));
    while (d.size() > 2 && Duration.between(d.peekFirst().at(), at).compareTo(RATE_WINDOW) > 0) {
      d.removeFirst();
    }
  }

  /** Every source's latest backlog and write rate. */
  public synchronized Map<String, Backlog> current() {
    Map<String, Backlog> out = new HashMap<>();
    bySource.forEach((id, d) -> {
      Observation last = d.peekLast();
      Observation first = d.peekFirst();
      double seconds = Duration.between(first.at(), last.at()).toMillis() / 1000.0;
      out.put(id, new Backlog(last.pending(), seconds > 0
          ? OptionalDouble.of((last.written() - first.written()) / seconds) : OptionalDouble.empty(),
          last.splits()));
    });
    return out;
  }

  /** Forgets everything: a new attempt starts from other positions. */
  public synchronized void clear() {
    bySource.clear();
  }
}
