package io.tributary.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 *
 * <p>Over an upsert stream ({@code inputKey} not null: the input's key, which holds every {@code
 * keyBy} field), each input record replaces the last one of its input key: that one is retracted
 * from its group's aggregates before the new one is added ({@code _op: delete} only retracts), so
 * the aggregates are always over the input's latest record per key. Only count, sum and avg
 * retract; a group left without records emits {@code _op: delete}.
 *
 * @param inputKey null for an append-only input; else the fields of the input upsert stream's key
 */
public record GroupAggregatePlan(String id, List<String> keyBy, List<AggregatePlan> aggregates,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<String> inputKey) implements OperatorPlan {
  public GroupAggregatePlan {
    keyBy = List.copyOf(keyBy);
    aggregates = List.copyOf(aggregates);
    inputKey = inputKey == null ? null : List.copyOf(inputKey);
    if (inputKey != null && !inputKey.containsAll(keyBy)) {
      throw new IllegalArgumentException("the groups of an aggregate over an upsert stream are fields of its key "
          + inputKey + ": " + keyBy);
    }
    if (inputKey != null && aggregates.stream().anyMatch(a -> !a.function().retracts())) {
      throw new IllegalArgumentException("only count, sum and avg aggregate an upsert stream: " + aggregates);
    }
  }

  /** An aggregate of an append-only input. */
  public GroupAggregatePlan(String id, List<String> keyBy, List<AggregatePlan> aggregates) {
    this(id, keyBy, aggregates, null);
  }
}
