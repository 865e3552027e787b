package io.tributary.connectors.nexmark;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.internal.GeneratorReader;
import io.tributary.connectors.internal.GeneratorSplit;
import io.tributary.connectors.internal.GeneratorStart;
import java.util.List;

/**
 * The Nexmark source. With no kind, every event is emitted with a leading {@code eventType}
 * field; with one kind, only events of that kind, without {@code eventType}, and {@code events}
 * counts only those. Split {@code i} of {@code n} emits the {@code i}-th, {@code (i+n)}-th, ...
 * event (of the kind), so the splits together emit each event exactly once. Event time starts at
 * a fixed time or at the wall clock's time when the job started, carried by the splits ({@link
 * GeneratorStart}).
 */
public final class NexmarkSource implements SourceConnector {
  private final String sourceId;
  private final long events;
  private final NexmarkKind kind;
  private final long seed;
  private final double eventRate;
  private final GeneratorStart start;

  /** A Nexmark source starting at {@link NexmarkGenerator#BASE_TIME} on every run. */
  public NexmarkSource(String sourceId, long events, NexmarkKind kind, long seed, double eventRate) {
    this(sourceId, events, kind, seed, eventRate, GeneratorStart.fixed(NexmarkGenerator.BASE_TIME));
  }

  /**
   * @param events total events over all splits, or {@code Long.MAX_VALUE} for unbounded
   * @param kind the only kind to emit, or null for all
   * @param start where event time starts
   */
  public NexmarkSource(String sourceId, long events, NexmarkKind kind, long seed, double eventRate,
      GeneratorStart start) {
    this.sourceId = sourceId;
    this.events = events;
    this.kind = kind;
    this.seed = seed;
    this.eventRate = eventRate;
    this.start = start;
  }

  /** The splits of a fresh start (carrying the wall clock's time now when the start follows it). */
  @Override
  public List<GeneratorSplit> splits(int parallelism) {
    return start.splits(sourceId, parallelism);
  }

  @Override
  public boolean splitsFollowParallelism() {
    return true;
  }

  @Override
  public SourceSplit splitOf(String id) {
    return GeneratorSplit.parse(sourceId, id);
  }

  @Override
  public SplitReader open(SourceSplit split) {
    return open(split, null);
  }

  /**
   * Resumes at a {@link SplitReader#position()} of the split's reader: the index of its next event
   * (among events of the kind, when there is one).
   */
  @Override
  public SplitReader open(SourceSplit split, String position) {
    GeneratorSplit s = (GeneratorSplit) split;
    NexmarkGenerator generator = new NexmarkGenerator(seed, eventRate, start.of(s));
    if (kind == null) {
      return GeneratorReader.resume(s, position, events, generator::event);
    }
    return GeneratorReader.resume(
        s, position, events, i -> generator.eventOfKind(NexmarkIds.eventNumber(kind, i)));
  }

  @Override
  public boolean bounded() {
    return events != Long.MAX_VALUE;
  }
}
