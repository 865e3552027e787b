package io.tributary.plan;

import java.util.List;
import java.util.Map;

/**
 * An inner equi-join of two inputs: a left record and a right record join when their keys are
 * equal ({@code leftKeys} of the left equal to {@code rightKeys} of the right, field by field),
 * their times fit the join's {@link Type}, and {@code filter} holds for the pair. Both inputs arrive
 * hash-partitioned on their keys; input 0 is the left, input 1 the right.
 *
 * <p>The joined row a pair makes (what {@code filter} and {@code select} read, and the output when
 * there is no {@code select}): for a window join {@code window_start} and {@code window_end}
 * first; then every left field; then every right field under its own name, or as {@code r.<name>}
 * when the row has that name already — except a right key field named as the left key it equals,
 * which is left out. {@code filter} and {@code select} may also name any field of either side as
 * {@code l.<name>} or {@code r.<name>}.
 *
 * <p>Output timestamps: a window join's results {@code window_end - 1}; the others' the later of
 * the pair's two timestamps.
 *
 * @param type which pairs may join, by time
 * @param window for {@link Type#WINDOW}: the window both records must fall into; else null
 * @param lowerBoundMillis for {@link Type#INTERVAL}: a right record joins a left one when
 *     {@code left.ts + lowerBound <= right.ts <= left.ts + upperBound}
 * @param upperBoundMillis see {@code lowerBoundMillis}
 * @param stateTtlMillis for {@link Type#REGULAR}: 0 keeps every record forever; else a pair
 *     joins only when its timestamps are less than this apart, and a record's state is dropped
 *     once the watermark shows no such partner can come any more
 * @param filter a SQL condition over the joined row; null: every pair
 * @param select output field to SQL expression over the joined row, in output order; null: the
 *     joined row itself
 */
public record JoinPlan(
    String id, Type type, List<String> leftKeys, List<String> rightKeys, WindowPlan window,
    long lowerBoundMillis, long upperBoundMillis, long stateTtlMillis, String filter, Map<String, String> select)
    implements OperatorPlan {
  public JoinPlan {
    leftKeys = List.copyOf(leftKeys);
    rightKeys = List.copyOf(rightKeys);
    if (leftKeys.size() != rightKeys.size() || leftKeys.isEmpty()) {
      throw new IllegalArgumentException("a join needs as many left keys as right keys, at least one: "
          + leftKeys + " vs " + rightKeys);
    }
    if ((type == Type.WINDOW) != (window != null)) {
      throw new IllegalArgumentException("a window join, and only a window join, has a window");
    }
    if (type == Type.INTERVAL && lowerBoundMillis > upperBoundMillis) {
      throw new IllegalArgumentException("interval join bounds " + lowerBoundMillis + " > " + upperBoundMillis);
    }
  }

  /** Which pairs may join, by time. */
  public enum Type {
    /** Both records fall into the same window; the window's pairs are emitted when it fires. */
    WINDOW,
    /** The right record's time lies within bounds around the left record's; emitted at once. */
    INTERVAL,
    /** Any time (within the state time-to-live, if one is set); emitted at once. */
    REGULAR
  }

  /** A window join. */
  public static JoinPlan window(String id, List<String> leftKeys, List<String> rightKeys, WindowPlan window,
      String filter, Map<String, String> select) {
    return new JoinPlan(id, Type.WINDOW, leftKeys, rightKeys, window, 0, 0, 0, filter, select);
  }

  /** An interval join: {@code left.ts + lower <= right.ts <= left.ts + upper}. */
  public static JoinPlan interval(String id, List<String> leftKeys, List<String> rightKeys, long lower, long upper,
      String filter, Map<String, String> select) {
    return new JoinPlan(id, Type.INTERVAL, leftKeys, rightKeys, null, lower, upper, 0, filter, select);
  }

  /** A regular join; {@code stateTtl} 0 keeps state forever. */
  public static JoinPlan regular(String id, List<String> leftKeys, List<String> rightKeys, long stateTtl,
      String filter, Map<String, String> select) {
    return new JoinPlan(id, Type.REGULAR, leftKeys, rightKeys, null, 0, 0, stateTtl, filter, select);
  }
}
