package io.tributary.plan;

import java.util.List;

/**
 * An unbounded group aggregate (SQL's {@code GROUP BY} without a window): incremental aggregates
 * per key over everything seen so far. The input arrives hash-partitioned on {@code keyBy}; an
 * empty {@code keyBy} is one global group.
 *
 * <p>The output is an upsert stream keyed by {@code keyBy} (see {@link io.tributary.stream.Changelog}):
 * for each record that changes its group's results, a record with {@code _op} ({@code insert} for
 * the group's first, {@code update} after), the key fields and the aggregates in declaration
 * order, timestamped as the input record. A record that changes no result (a {@code max} not
 * exceeded) emits nothing.
 */
public record GroupAggregatePlan(String id, List<String> keyBy, List<AggregatePlan> aggregates)
    implements OperatorPlan {
  public GroupAggregatePlan {
    keyBy = List.copyOf(keyBy);
    aggregates = List.copyOf(aggregates);
  }
}
