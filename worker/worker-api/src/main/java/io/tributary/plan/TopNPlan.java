package io.tributary.plan;

import java.util.List;

/**
 * The top N rows of each partition (SQL's {@code ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...)
 * <= N}; with N = 1 ordered by time, deduplication). The input arrives hash-partitioned on {@code
 * partitionBy}.
 *
 * <ul>
 *   <li>Per window, when {@code partitionBy} includes {@code window_end}: a partition's rows are
 *       emitted when the watermark reaches {@code window_end - 1}, best first, then forgotten.
 *   <li>Unbounded otherwise: the best rows of each partition over everything so far, kept forever;
 *       the output is an upsert stream ({@link io.tributary.stream.Changelog}) keyed by {@link
 *       #upsertKey()}, the partition and the rank: each row that enters the top N emits its rank and
 *       the ranks below it that changed. With N &gt; 1 the rank must be named.
 * </ul>
 *
 * @param partitionBy the fields whose values make a partition; with {@code window_end} among them,
 *     a top-N per window
 * @param orderBy how rows rank, the first key first; rows equal in every key rank by their other
 *     fields, so the result does not depend on arrival order
 * @param limit how many rows of each partition are emitted, at least 1
 * @param rankField null, or the name of a field added to each emitted row with its rank (1 for
 *     the best)
 */
public record TopNPlan(String id, List<String> partitionBy, List<SortKey> orderBy, int limit, String rankField)
    implements OperatorPlan {
  /** The field every partition of a top-N names: its rows are emitted when the window ends. */
  public static final String WINDOW_END = "window_end";

  public TopNPlan {
    partitionBy = List.copyOf(partitionBy);
    orderBy = List.copyOf(orderBy);
    if (orderBy.isEmpty() || limit < 1) {
      throw new IllegalArgumentException("a top-N orders by at least one key and keeps at least one row: "
          + orderBy + ", " + limit);
    }
    if (!partitionBy.contains(WINDOW_END) && limit > 1 && rankField == null) {
      throw new IllegalArgumentException("an unbounded top-N of more than one row names its rank: its output is "
          + "keyed by the partition and the rank");
    }
  }

  /** Whether this is a top-N per window ({@code partitionBy} names {@code window_end}); else unbounded. */
  public static boolean perWindow(List<String> partitionBy) {
    return partitionBy.contains(WINDOW_END);
  }

  /**
   * The key of an unbounded top-N's upsert stream: the partition's fields, then the rank field if
   * named (with one row per partition, the partition alone when it is not).
   */
  public static List<String> upsertKey(List<String> partitionBy, String rankField) {
    if (rankField == null) {
      return List.copyOf(partitionBy);
    }
    java.util.List<String> key = new java.util.ArrayList<>(partitionBy);
    key.add(rankField);
    return List.copyOf(key);
  }

  /**
   * One key of an order: the field's value, numbers numerically, strings by their UTF-16 code
   * units, false before true.
   *
   * @param descending largest first
   * @param nullsFirst nulls before every value (else after every value), whatever the direction
   */
  public record SortKey(String field, boolean descending, boolean nullsFirst) {}
}
