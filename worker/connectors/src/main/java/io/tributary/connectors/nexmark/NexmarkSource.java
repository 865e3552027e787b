package io.tributary.connectors.nexmark;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.internal.GeneratorReader;
import io.tributary.connectors.internal.GeneratorSplit;
import java.util.List;

/**
 * The Nexmark source. With no kind, every event is emitted with a leading {@code eventType}
 * field; with one kind, only events of that kind, without {@code eventType}, and {@code events}
 * counts only those. Split {@code i} of {@code n} emits the {@code i}-th, {@code (i+n)}-th, ...
 * event (of the kind), so the splits together emit each event exactly once.
 */
public final class NexmarkSource implements SourceConnector {
  private final String sourceId;
  private final long events;
  private final NexmarkKind kind;
  private final long seed;
  private final double eventRate;

  /**
   * @param events total events over all splits, or {@code Long.MAX_VALUE} for unbounded
   * @param kind the only kind to emit, or null for all
   */
  public NexmarkSource(String sourceId, long events, NexmarkKind kind, long seed, double eventRate) {
    this.sourceId = sourceId;
    this.events = events;
    this.kind = kind;
    this.seed = seed;
    this.eventRate = eventRate;
  }

  @Override
  public List<GeneratorSplit> splits(int parallelism) {
    return GeneratorSplit.all(sourceId, parallelism);
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
    NexmarkGenerator generator = new NexmarkGenerator(seed, eventRate);
    GeneratorSplit s = (GeneratorSplit) split;
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
