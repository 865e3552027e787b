package io.tributary.worker.aggregate;

/**
 * The mutable state of one (key, window), or of one group: the running value of every aggregate,
 * by slot, plus what a window operator needs to fire it exactly as C4 says ({@link #revision},
 * {@link #pending}). Built and read only through {@link Aggregates}.
 *
 * <p>Per slot, three cells of one {@code long[]} (one array, so updating a window touches two
 * objects, not five): the number of inputs counted (for count, the result; for the others, the
 * number of non-null inputs); sum/min/max, as a long while every input was a whole number, as the
 * bits of a double once one was not; and whether it is a double. {@code distinct} holds the
 * distinct values of a {@code count(DISTINCT x)} slot (null for other slots, or none at all).
 */
public final class Accumulator {
  /** The revision last emitted for this window; -1 before the first firing. */
  public long revision = -1;
  /** True when the accumulator changed since it was last emitted. */
  public boolean pending;
  /** Per slot {@code i}: count at {@code 3i}, value at {@code 3i + 1}, 1 at {@code 3i + 2} if the value is a double. */
  final long[] cells;
  /** Per slot, the distinct values seen by a {@code count(DISTINCT x)}; null when no slot is one. */
  java.util.Set<Object>[] distinct;

  Accumulator(int slots) {
    cells = new long[3 * slots];
  }

  int slots() {
    return cells.length / 3;
  }

  long count(int i) {
    return cells[3 * i];
  }

  /** Adds {@code delta} to slot {@code i}'s count; returns the new count. */
  long addCount(int i, long delta) {
    return cells[3 * i] += delta;
  }

  void setCount(int i, long n) {
    cells[3 * i] = n;
  }

  boolean inDouble(int i) {
    return cells[3 * i + 2] != 0;
  }

  /** Slot {@code i}'s value while it is a whole number. */
  long longValue(int i) {
    return cells[3 * i + 1];
  }

  void setLong(int i, long v) {
    cells[3 * i + 1] = v;
    cells[3 * i + 2] = 0;
  }

  /** Slot {@code i}'s value once it is a double. */
  double doubleValue(int i) {
    return Double.longBitsToDouble(cells[3 * i + 1]);
  }

  void setDouble(int i, double v) {
    cells[3 * i + 1] = Double.doubleToRawLongBits(v);
    cells[3 * i + 2] = 1;
  }

  /** The distinct values of slot {@code i}, created empty when it has none yet. */
  @SuppressWarnings("unchecked")
  java.util.Set<Object> distinct(int i) {
    if (distinct == null) {
      distinct = new java.util.Set[slots()];
    }
    if (distinct[i] == null) {
      distinct[i] = new java.util.HashSet<>();
    }
    return distinct[i];
  }

  /** Moves slot {@code i} from whole numbers to doubles, keeping its value. */
  void toDouble(int i) {
    if (!inDouble(i)) {
      setDouble(i, longValue(i));
    }
  }
}
