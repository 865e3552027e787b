package io.tributary.connectors.internal;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * Where a generator's event time starts: the event time (epoch ms) of its sequence number 0.
 *
 * <ul>
 *   <li><b>Fixed</b> ({@link #fixed}): by the spec's {@code startTime}, or {@link #DEFAULT} for a
 *       bounded generator, so bounded runs are the same on every run. Its splits carry no start.
 *   <li><b>Wall clock</b> ({@link #wallClock}): an unbounded generator without {@code startTime}
 *       starts at the current time; with a rate limit it emits each record when the clock reaches its
 *       event time ({@link #paces}), so its event time keeps pace with the clock and its watermark
 *       lags by about its out-of-orderness. The time is taken once, when the splits of a fresh start
 *       are listed (at placement, once for all subtasks), and carried in each split's id: a restore
 *       resumes the checkpoint's splits by id and continues their event times exactly, neither
 *       jumping nor repeating. A split without a start (a checkpoint of a version that had none)
 *       continues from {@link #DEFAULT}, which that version used.
 * </ul>
 *
 * A split that carries a start always wins over the configuration: a restored generator continues
 * the event times of its checkpoint.
 */
public final class GeneratorStart {
  /** 2026-01-01T00:00:00Z: the start of bounded generators without {@code startTime}. */
  public static final long DEFAULT = 1767225600000L;

  private final long fixed;
  private final LongSupplier clock;
  private final boolean paced;

  private GeneratorStart(long fixed, LongSupplier clock, boolean paced) {
    this.fixed = fixed;
    this.clock = clock;
    this.paced = paced;
  }

  /** Starts at {@code startTime}, on every run. */
  public static GeneratorStart fixed(long startTime) {
    return new GeneratorStart(startTime, null, false);
  }

  /**
   * Starts at {@code clock}'s time (epoch ms) when a fresh start lists the splits, and keeps pace
   * with it (see {@link #paces}).
   */
  public static GeneratorStart wallClock(LongSupplier clock) {
    return wallClock(clock, true);
  }

  /** Starts at {@code clock}'s time; {@code paced}: keeps pace with it, else runs as fast as it is read. */
  public static GeneratorStart wallClock(LongSupplier clock, boolean paced) {
    return new GeneratorStart(DEFAULT, clock, paced);
  }

  /**
   * Whether an unbounded generator that started at the clock's time emits each record only once the
   * clock reaches its event time ({@link GeneratorReader#paceBy}): one with a rate limit, which is
   * meant to run live; without one it runs as fast as it is read (a load test).
   */
  public boolean paces() {
    return clock != null && paced;
  }

  /** The wall clock a generator that {@link #paces} keeps pace with (epoch ms); null for a fixed start. */
  public LongSupplier clock() {
    return clock;
  }

  /** Whether the start is taken from the wall clock. */
  public boolean followsWallClock() {
    return clock != null;
  }

  /** The splits of a fresh start at {@code parallelism}; with the wall clock's time now in each. */
  public List<GeneratorSplit> splits(String sourceId, int parallelism) {
    return GeneratorSplit.all(sourceId, parallelism, clock == null ? null : clock.getAsLong());
  }

  /** The event time of sequence number 0 for a reader of {@code split}. */
  public long of(GeneratorSplit split) {
    return split.startTime() != null ? split.startTime() : fixed;
  }
}
