package io.tributary.connectors.nexmark;

import io.tributary.connect.SplitReader;
import io.tributary.connectors.internal.GeneratorReader;
import io.tributary.connectors.internal.GeneratorSource;
import io.tributary.connectors.internal.GeneratorSplit;
import io.tributary.connectors.internal.GeneratorStart;

/**
 * The Nexmark source. With no kind, every event is emitted with a leading {@code eventType}
 * field; with one kind, only events of that kind, without {@code eventType}, and {@code events}
 * counts only those. Split {@code i} of {@code n} emits the {@code i}-th, {@code (i+n)}-th, ...
 * event (of the kind), so the splits together emit each event exactly once. Event time starts at
 * a fixed time or at the wall clock's time when the job started, carried by the splits ({@link
 * GeneratorStart}).
 */
public final class NexmarkSource extends GeneratorSource {
  private final NexmarkKind kind;
  private final long seed;
  private final double eventRate;

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
    super(sourceId, events, start);
    this.kind = kind;
    this.seed = seed;
    this.eventRate = eventRate;
  }

  @Override
  protected java.util.function.LongUnaryOperator eventTimes(long firstTime) {
    NexmarkGenerator generator = new NexmarkGenerator(seed, eventRate, firstTime);
    return kind == null ? generator::eventTime : n -> generator.eventTime(NexmarkIds.eventNumber(kind, n));
  }

  /**
   * Resumes at a {@link SplitReader#position()} of the split's reader: the index of its next event
   * (among events of the kind, when there is one).
   */
  @Override
  protected SplitReader reader(GeneratorSplit s, String position, long total, long firstTime) {
    NexmarkGenerator generator = new NexmarkGenerator(seed, eventRate, firstTime);
    if (kind == null) {
      return GeneratorReader.resume(s, position, total, generator::event);
    }
    return GeneratorReader.resume(
        s, position, total, i -> generator.eventOfKind(NexmarkIds.eventNumber(kind, i)));
  }
}
