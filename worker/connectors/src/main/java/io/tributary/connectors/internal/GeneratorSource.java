package io.tributary.connectors.internal;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import java.util.List;

/**
 * A source that generates its records from their sequence numbers ({@code datagen}, {@code
 * nexmark}): one {@link GeneratorSplit} per subtask, split {@code i} of {@code n} taking numbers
 * {@code i, i+n, i+2n, ...} below the total, its event time starting where {@link GeneratorStart}
 * says. A subclass says how a split's reader makes its records ({@link #reader}).
 */
public abstract class GeneratorSource implements SourceConnector {
  private final String sourceId;
  private final long total;
  private final GeneratorStart start;

  /**
   * @param total records over all splits, or {@code Long.MAX_VALUE} for unbounded
   * @param start where event time starts
   */
  protected GeneratorSource(String sourceId, long total, GeneratorStart start) {
    this.sourceId = sourceId;
    this.total = total;
    this.start = start;
  }

  /** The splits of a fresh start (carrying the wall clock's time now when the start follows it). */
  @Override
  public final List<GeneratorSplit> splits(int parallelism) {
    return start.splits(sourceId, parallelism);
  }

  @Override
  public final boolean splitsFollowParallelism() {
    return true;
  }

  @Override
  public final SourceSplit splitOf(String id) {
    return GeneratorSplit.parse(sourceId, id);
  }

  @Override
  public final SplitReader open(SourceSplit split) {
    return open(split, null);
  }

  /** Resumes at a {@link SplitReader#position()} of the split's reader (see {@link #reader}). */
  @Override
  public final SplitReader open(SourceSplit split, String position) {
    GeneratorSplit s = (GeneratorSplit) split;
    long first = start.of(s);
    SplitReader r = reader(s, position, total, first);
    if (start.paces() && s.startTime() != null && total == Long.MAX_VALUE && r instanceof GeneratorReader g) {
      // started at the wall clock's time, without end, rate-limited: keeps pace with it (see GeneratorStart)
      g.paceBy(start.clock(), eventTimes(first));
    }
    return r;
  }

  /** Each sequence number's event time (epoch ms) in a run whose event time starts at {@code firstTime}. */
  protected abstract java.util.function.LongUnaryOperator eventTimes(long firstTime);

  /**
   * The reader of split {@code s}, from {@code position} (null: its start), of a run whose event time
   * starts at {@code firstTime}: a {@link GeneratorReader}.
   */
  protected abstract SplitReader reader(GeneratorSplit s, String position, long total, long firstTime);

  @Override
  public final boolean bounded() {
    return total != Long.MAX_VALUE;
  }
}
