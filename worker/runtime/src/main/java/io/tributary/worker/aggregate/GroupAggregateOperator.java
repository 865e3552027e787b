package io.tributary.worker.aggregate;

import io.tributary.expr.ExpressionException;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.state.Key;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import io.tributary.state.ValueState;
import io.tributary.stream.Changelog;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.state.RecordCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
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
 *   <li>Over an upsert stream ({@link GroupAggregatePlan#inputKey()}): per group, also the last
 *       record of each input key in it (a map state under the group's key: the input key holds the
 *       group's fields, so a key's records all go to one group). A record first retracts its input
 *       key's last record from the aggregates, then counts itself unless it is a {@code delete}; a
 *       group left without records emits {@code _op: delete} with its last results and is dropped.
 * </ul>
 */
public final class GroupAggregateOperator implements Operator {
  static final String STATE_NAME = "group-aggregate";
  static final String LAST_NAME = "group-aggregate-last";

  private final KeySelector keySelector;
  private final Aggregates aggregates;
  private final Schema schema;
  private final int keyFields;
  private KeyedStateBackend backend;
  private OperatorMetrics metrics;
  private ValueState<Accumulator> state;
  private final KeySelector inputKey;
  private MapState<Key, Record> last;

  public GroupAggregateOperator(GroupAggregatePlan plan) {
    this.keySelector = new KeySelector(plan.keyBy());
    this.aggregates = new Aggregates(plan.aggregates());
    List<String> names = new ArrayList<>();
    names.add(Changelog.FIELD);
    names.addAll(plan.keyBy());
    plan.aggregates().stream().map(AggregatePlan::name).forEach(names::add);
    this.schema = Schema.of(names);
    this.keyFields = plan.keyBy().size();
    this.inputKey = plan.inputKey() == null ? null : new KeySelector(plan.inputKey());
  }

  @Override
  public void open(OperatorContext context) {
    backend = context.keyedState();
    metrics = context.metrics();
    state = backend.valueState(STATE_NAME, AccumulatorCodec.INSTANCE);
    if (inputKey != null) {
      last = backend.mapState(LAST_NAME, KEY_CODEC, RecordCodec.INSTANCE);
    }
  }

  @Override
  public void processElement(Record record, Output out) {
    if (inputKey != null) {
      processChange(record, out);
      return;
    }
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

  /** A record of an upsert stream: it replaces (or deletes) the last record of its input key. */
  private void processChange(Record record, Output out) {
    boolean delete = Changelog.DELETE.equals(record.get(Changelog.FIELD));
    if (!delete) {
      try {
        aggregates.evaluate(record);
      } catch (ExpressionException e) {
        metrics.incMalformed();
        return;
      }
    }
    Key key = keySelector.keyOf(record);
    backend.setCurrentKey(key);
    Key of = inputKey.keyOf(record);
    Record previous = last.get(of);
    if (previous == null && delete) {
      return;
    }
    Accumulator acc = state.value();
    Object[] before = acc == null ? null : results(acc);
    if (acc == null) {
      acc = aggregates.newAccumulator();
    }
    if (previous != null) {
      aggregates.evaluate(previous); // it was counted, so it evaluates
      aggregates.retractFrom(acc);
    }
    if (delete) {
      last.remove(of);
      if (last.isEmpty()) {
        state.clear();
        out.emit(result(Changelog.DELETE, key, before, record.timestamp()));
        return;
      }
    } else {
      aggregates.evaluate(record);
      aggregates.addTo(acc);
      last.put(of, record);
    }
    state.update(acc);
    Object[] after = results(acc);
    if (before == null || !Arrays.equals(before, after)) {
      out.emit(result(before == null ? Changelog.INSERT : Changelog.UPDATE, key, after, record.timestamp()));
    }
  }

  private Record result(String op, Key key, Object[] results, long timestamp) {
    Object[] values = new Object[schema.size()];
    values[0] = op;
    for (int i = 0; i < keyFields; i++) {
      values[1 + i] = key.get(i);
    }
    System.arraycopy(results, 0, values, 1 + keyFields, results.length);
    return new Record(schema, values, timestamp);
  }

  /** A key as its bytes. */
  private static final StateCodec<Key> KEY_CODEC = new StateCodec<>() {
    @Override
    public void write(Key value, DataOutput out) throws IOException {
      byte[] b = value.bytes();
      out.writeInt(b.length);
      out.write(b);
    }

    @Override
    public Key read(DataInput in) throws IOException {
      byte[] b = new byte[in.readInt()];
      in.readFully(b);
      return Key.fromBytes(b);
    }
  };

  private Object[] results(Accumulator acc) {
    Object[] r = new Object[aggregates.size()];
    aggregates.results(acc, r, 0);
    return r;
  }
}
