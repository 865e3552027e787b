package io.tributary.plan;

import java.util.List;

/**
 * The top N rows of each partition of each window (SQL's {@code ROW_NUMBER() OVER (PARTITION BY
 * ... ORDER BY ...) <= N} over windowed rows; with N = 1 ordered by time, deduplication). The
 * input arrives hash-partitioned on {@code partitionBy}, which includes {@code window_end}: a
 * partition's rows are emitted when the watermark reaches {@code window_end - 1}, best first, then
 * forgotten.
 *
 * @param partitionBy the fields whose values make a partition; {@code window_end} among them
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
    if (!partitionBy.contains(WINDOW_END) || orderBy.isEmpty() || limit < 1) {
      throw new IllegalArgumentException("a top-N partitions by window_end, orders by at least one key and keeps "
          + "at least one row: " + partitionBy + ", " + orderBy + ", " + limit);
    }
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
