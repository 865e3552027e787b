package io.tributary.plan;

import java.util.List;

/**
 * Keyed event-time windows with incremental aggregates (contract C4). The input arrives
 * hash-partitioned on {@code keyBy}; an empty {@code keyBy} is one global key.
 *
 * <p>Output records carry the key fields, {@code window_start}, {@code window_end} (epoch ms, end
 * exclusive), the aggregates in declaration order, and {@code revision} (0 for the first firing,
 * then 1, 2... for updates by late records within allowed lateness). Their timestamp is
 * {@code window_end - 1}.
 *
 * @param lateOutput side output name for records beyond allowed lateness; null: dropped, counted
 */
public record WindowAggregatePlan(
    String id, List<String> keyBy, WindowPlan window, long allowedLatenessMillis, String lateOutput,
    List<AggregatePlan> aggregates) implements OperatorPlan {
  public WindowAggregatePlan {
    keyBy = List.copyOf(keyBy);
    aggregates = List.copyOf(aggregates);
  }
}
