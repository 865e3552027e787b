package io.tributary.worker.aggregate;

import io.tributary.expr.ExpressionException;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.state.Key;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ValueState;
import io.tributary.stream.Changelog;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An unbounded group aggregate (SQL's {@code GROUP BY} without a window), whose results update as
 * records arrive: an upsert stream keyed by the group ({@link GroupAggregatePlan}).
 *
 * <ul>
 *   <li>State: one {@link Accumulator} per group in keyed value state; no timers, no event time
 *       needed.
 *   <li>Per record, the group's results before and after it are compared: a changed result is
 *       emitted as {@code _op: insert} (the group's first) or {@code update}, with the key fields
 *       and the aggregates, timestamped as the record; an unchanged one is not.
 *   <li>A record whose aggregate arguments cannot be evaluated is counted as malformed and changes
 *       nothing.
 * </ul>
 */
public final class GroupAggregateOperator implements Operator {
  static final String STATE_NAME = "group-aggregate";

  private final KeySelector keySelector;
  private final Aggregates aggregates;
  private final Schema schema;
  private final int keyFields;
  private KeyedStateBackend backend;
  private OperatorMetrics metrics;
  private ValueState<Accumulator> state;

  public GroupAggregateOperator(GroupAggregatePlan plan) {
    this.keySelector = new KeySelector(plan.keyBy());
    this.aggregates = new Aggregates(plan.aggregates());
    List<String> names = new ArrayList<>();
    names.add(Changelog.FIELD);
    names.addAll(plan.keyBy());
    plan.aggregates().stream().map(AggregatePlan::name).forEach(names::add);
    this.schema = Schema.of(names);
    this.keyFields = plan.keyBy().size();
  }

  @Override
  public void open(OperatorContext context) {
    backend = context.keyedState();
    metrics = context.metrics();
    state = backend.valueState(STATE_NAME, AccumulatorCodec.INSTANCE);
  }

  @Override
  public void processElement(Record record, Output out) {
    try {
      aggregates.evaluate(record);
    } catch (ExpressionException e) {
      metrics.incMalformed();
      return;
    }
    Key key = keySelector.keyOf(record);
    backend.setCurrentKey(key);
    Accumulator acc = state.value();
    Object[] before = null;
    if (acc == null) {
      acc = aggregates.newAccumulator();
    } else {
      before = results(acc);
    }
    aggregates.addTo(acc);
    state.update(acc);
    Object[] after = results(acc);
    if (before != null && Arrays.equals(before, after)) {
      return;
    }
    Object[] values = new Object[schema.size()];
    values[0] = before == null ? Changelog.INSERT : Changelog.UPDATE;
    for (int i = 0; i < keyFields; i++) {
      values[1 + i] = key.get(i);
    }
    System.arraycopy(after, 0, values, 1 + keyFields, after.length);
    out.emit(new Record(schema, values, record.timestamp()));
  }

  private Object[] results(Accumulator acc) {
    Object[] r = new Object[aggregates.size()];
    aggregates.results(acc, r, 0);
    return r;
  }
}
