package io.tributary.scheduler.spec;

import java.util.List;

/**
 * An operator's {@code topN}: the best {@code limit} rows of each partition of each window, emitted
 * when the window ends (SQL's {@code ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) <= N}).
 *
 * @param partitionBy the fields whose values make a partition; {@code window_end} among them
 * @param orderBy how rows rank, the first key first
 * @param limit how many rows each partition emits, 1 to {@link SpecLimits#MAX_TOP_N}
 * @param rankField null, or the field to add to each row with its rank (1 for the best)
 */
public record TopNSpec(List<String> partitionBy, List<SortKey> orderBy, Integer limit, String rankField) {
  public TopNSpec {
    partitionBy = Copies.list(partitionBy);
    orderBy = Copies.list(orderBy);
  }

  /**
   * One key of the order.
   *
   * @param desc largest first (default false)
   * @param nulls {@code first} or {@code last} (the default), whatever the direction
   */
  public record SortKey(String field, boolean desc, String nulls) {}
}
