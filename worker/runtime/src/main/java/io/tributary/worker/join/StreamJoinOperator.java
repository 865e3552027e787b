package io.tributary.worker.join;

import io.tributary.expr.ExpressionException;
import io.tributary.plan.JoinPlan;
import io.tributary.state.Key;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import io.tributary.worker.operator.TwoInputOperator;
import io.tributary.worker.state.LongCodec;
import io.tributary.worker.state.RecordCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The interval join and the regular join: every record is kept per key, and each record that
 * arrives joins at once with the other side's kept records whose times fit.
 *
 * <ul>
 *   <li>Interval join: left {@code a} and right {@code b} fit when {@code a.ts + lower <= b.ts <= a.ts +
 *       upper}. A regular join with a state time-to-live {@code ttl} is the same with bounds
 *       {@code -(ttl - 1)} and {@code ttl - 1}: timestamps less than {@code ttl} apart. A regular
 *       join without one: any times fit, records are kept forever, nothing is late.
 *   <li>State: per key and side a map from timestamp to the records of that timestamp, to which a
 *       record is added without reading it where the backend can. With bounds,
 *       a left record is dropped once the watermark reaches {@code ts + upper} (no right record to
 *       come can fit), a right one at {@code ts - lower}: event-time timers, namespaced by side.
 *   <li>With bounds, a record at or behind the watermark is late: dropped and counted, as the
 *       records it could have joined may be gone. Within the watermark bound nothing is late, and
 *       every fitting pair is emitted exactly once whatever order the records arrive in.
 *   <li>Results carry the later of the pair's timestamps. A record without a timestamp is
 *       malformed when there are bounds; one with a null key field joins nothing and is dropped.
 * </ul>
 */
public final class StreamJoinOperator implements TwoInputOperator {
  static final String[] STATE_NAMES = {"join-left", "join-right"};

  private final JoinPlan plan;
  private final KeySelector[] keys;
  private final boolean bounded;
  /** A right record fits a left one at {@code ts} when within {@code [ts + lower, ts + upper]}. */
  private final long lower;
  private final long upper;
  private JoinRows rows;
  private KeyedStateBackend backend;
  private TimerService timers;
  private OperatorMetrics metrics;
  private final List<MapState<Long, List<Record>>> sides = new ArrayList<>(2);

  public StreamJoinOperator(JoinPlan plan) {
    this.plan = plan;
    this.keys = new KeySelector[] {new KeySelector(plan.leftKeys()), new KeySelector(plan.rightKeys())};
    switch (plan.type()) {
      case INTERVAL -> {
        bounded = true;
        lower = plan.lowerBoundMillis();
        upper = plan.upperBoundMillis();
      }
      case REGULAR -> {
        bounded = plan.stateTtlMillis() > 0;
        lower = bounded ? 1 - plan.stateTtlMillis() : Long.MIN_VALUE;
        upper = bounded ? plan.stateTtlMillis() - 1 : Long.MAX_VALUE;
      }
      default -> throw new IllegalArgumentException("not an interval or regular join: " + plan.type());
    }
  }

  /** The codec of this operator's timer namespaces (the side, {@code 0L} or {@code 1L}), for timer snapshots. */
  public static StateCodec<Long> namespaceCodec() {
    return LongCodec.INSTANCE;
  }

  @Override
  public void open(OperatorContext context) {
    rows = new JoinRows(plan);
    backend = context.keyedState();
    timers = context.timers();
    metrics = context.metrics();
    for (String name : STATE_NAMES) {
      sides.add(backend.mapState(name, LongCodec.INSTANCE, RecordCodec.LIST, List::addAll));
    }
  }

  @Override
  public void processElement(int input, Record record, Output out) {
    long ts = record.timestamp();
    if (bounded && ts == Record.NO_TIMESTAMP) {
      metrics.incMalformed();
      return;
    }
    if (bounded && ts <= timers.currentWatermark()) {
      metrics.incLateDropped();
      return;
    }
    Key key = keys[input].keyOf(record);
    if (JoinKeys.hasNull(key, keys[input].fields().size())) {
      return;
    }
    backend.setCurrentKey(key);
    for (Record partner : partners(input, ts)) {
      emit(input == LEFT ? record : partner, input == LEFT ? partner : record, out);
    }
    keep(input, record);
  }

  /** The other side's kept records that fit a record of {@code input} at {@code ts}. */
  private List<Record> partners(int input, long ts) {
    List<Record> found = new ArrayList<>();
    for (Map.Entry<Long, List<Record>> e : sides.get(1 - input).entries()) {
      long left = input == LEFT ? ts : e.getKey();
      long right = input == LEFT ? e.getKey() : ts;
      if (fits(left, right)) {
        found.addAll(e.getValue());
      }
    }
    return found;
  }

  private boolean fits(long left, long right) {
    if (!bounded) {
      return true;
    }
    long d = right - left; // both lie within the watermark's reach: no overflow for real event times
    return d >= lower && d <= upper;
  }

  /** Keeps the record for the other side's records to come, until none of them can fit it. */
  private void keep(int input, Record record) {
    long ts = record.timestamp();
    if (bounded) {
      long expires = expiry(input, ts);
      if (expires <= timers.currentWatermark()) {
        return;
      }
      timers.register((long) input, expires);
    }
    List<Record> kept = new ArrayList<>(1);
    kept.add(record);
    sides.get(input).add(ts, kept); // on forst without reading what the timestamp has kept so far
  }

  /** When a record of {@code input} at {@code ts} can fit no record of the other side to come. */
  private long expiry(int input, long ts) {
    return input == LEFT ? saturatedAdd(ts, upper) : saturatedAdd(ts, -lower);
  }

  @Override
  public void onTimer(Timer timer, Output out) {
    int input = (int) (long) (Long) timer.namespace();
    long ts = input == LEFT ? timer.time() - upper : timer.time() + lower;
    sides.get(input).remove(ts);
  }

  private void emit(Record left, Record right, Output out) {
    try {
      Record joined = rows.join(left, right, 0, 0, Math.max(left.timestamp(), right.timestamp()));
      if (joined != null) {
        out.emit(joined);
      }
    } catch (ExpressionException e) {
      metrics.incMalformed();
    }
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? (b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : r;
  }
}
