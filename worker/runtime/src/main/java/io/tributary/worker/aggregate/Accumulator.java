package io.tributary.worker.aggregate;

/**
 * The mutable state of one (key, window), or of one group: the running value of every aggregate,
 * by slot, plus what a window operator needs to fire it exactly as C4 says ({@link #revision},
 * {@link #pending}). Built and read only through {@link Aggregates}.
 *
 * <p>Per slot: {@code counts} is the number of inputs counted (for count, the result; for the
 * others, the number of non-null inputs); {@code longs} holds sum/min/max while every input was
 * a whole number, {@code doubles} once one was not ({@code inDouble}); {@code distinct} holds the
 * distinct values of a {@code count(DISTINCT x)} slot (null for other slots, or none at all).
 */
public final class Accumulator {
  /** The revision last emitted for this window; -1 before the first firing. */
  public long revision = -1;
  /** True when the accumulator changed since it was last emitted. */
  public boolean pending;
  final long[] counts;
  final long[] longs;
  final double[] doubles;
  final boolean[] inDouble;
  /** Per slot, the distinct values seen by a {@code count(DISTINCT x)}; null when no slot is one. */
  java.util.Set<Object>[] distinct;

  Accumulator(int slots) {
    counts = new long[slots];
    longs = new long[slots];
    doubles = new double[slots];
    inDouble = new boolean[slots];
  }

  int slots() {
    return counts.length;
  }

  /** The distinct values of slot {@code i}, created empty when it has none yet. */
  @SuppressWarnings("unchecked")
  java.util.Set<Object> distinct(int i) {
    if (distinct == null) {
      distinct = new java.util.Set[counts.length];
    }
    if (distinct[i] == null) {
      distinct[i] = new java.util.HashSet<>();
    }
    return distinct[i];
  }

  /** Moves slot {@code i} from whole numbers to doubles, keeping its value. */
  void toDouble(int i) {
    if (!inDouble[i]) {
      doubles[i] = longs[i];
      inDouble[i] = true;
    }
  }
}
