package io.tributary.worker.topn;

import io.tributary.plan.TopNPlan;
import io.tributary.state.KeyedStateBackend;
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
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import io.tributary.worker.state.LongCodec;
import io.tributary.worker.state.RecordCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The top N rows of each partition ({@link TopNPlan}): SQL's {@code ROW_NUMBER() OVER (PARTITION BY
 * ... ORDER BY ...) <= N}, and with N = 1 ordered by time, deduplication; per window when the
 * partition names {@code window_end}, else unbounded.
 *
 * <p>Per window:
 *
 * <ul>
 *   <li>State: per partition (the keyed state's key) its best {@code limit} rows so far, in
 *       order ({@link RowOrder}); a row that cannot make it is not kept. One event-time timer per
 *       partition at {@code window_end - 1}.
 *   <li>When the watermark reaches it, the partition's rows are emitted best first, each with its
 *       rank in {@code rankField} if one is named, timestamped {@code window_end - 1}; then its
 *       state is dropped.
 *   <li>A row for a partition that was emitted already ({@code window_end - 1 <= watermark}) is late:
 *       dropped and counted. So a window result re-fired for a late record (revision 1 and
 *       later) reaches a top-N after its window's ranks were emitted and is dropped: a top-N
 *       ranks first firings. A row without a whole-number {@code window_end} is malformed.
 * </ul>
 *
 * <p>Unbounded:
 *
 * <ul>
 *   <li>State: per partition its best {@code limit} rows so far, in order, kept forever; no timers,
 *       no event time needed.
 *   <li>A row that makes the top N emits, as an upsert stream ({@code _op} first), each rank whose
 *       row it changed: its own and those below it, each moved down one (a row pushed out of the
 *       top N is replaced, not deleted); {@code insert} for a rank filled the first time, else
 *       {@code update}. Each emitted row keeps its own timestamp. Which rows hold the ranks in the
 *       end never depends on arrival order ({@link RowOrder}).
 * </ul>
 */
public final class TopNOperator implements Operator {
  static final String STATE_NAME = "top-n";
  private static final Long NAMESPACE = 0L;

  private final TopNPlan plan;
  private final KeySelector partition;
  private final RowOrder order;
  private KeyedStateBackend backend;
  private TimerService timers;
  private OperatorMetrics metrics;
  private ValueState<List<Record>> state;
  private Schema lastIn;
  private Schema lastOut;
  private int rankIndex;
  private Schema lastChangeIn;
  private Schema lastChangeOut;

  public TopNOperator(TopNPlan plan) {
    this.plan = plan;
    this.partition = new KeySelector(plan.partitionBy());
    this.order = new RowOrder(plan.orderBy());
  }

  /** The codec of this operator's timer namespaces (one constant), for timer snapshots. */
  public static StateCodec<Long> namespaceCodec() {
    return LongCodec.INSTANCE;
  }

  @Override
  public void open(OperatorContext context) {
    backend = context.keyedState();
    timers = context.timers();
    metrics = context.metrics();
    state = backend.valueState(STATE_NAME, RecordCodec.LIST);
  }

  @Override
  public void processElement(Record record, Output out) {
    if (!TopNPlan.perWindow(plan.partitionBy())) {
      processUnbounded(record, out);
      return;
    }
    if (!(record.get(TopNPlan.WINDOW_END) instanceof Long end) || end == Long.MIN_VALUE) {
      metrics.incMalformed();
      return;
    }
    long closes = end - 1;
    if (closes <= timers.currentWatermark()) {
      metrics.incLateDropped();
      return;
    }
    backend.setCurrentKey(partition.keyOf(record));
    List<Record> best = state.value();
    if (best == null) {
      best = new ArrayList<>(Math.min(plan.limit(), 16));
      timers.register(NAMESPACE, closes);
    }
    int at = Collections.binarySearch(best, record, order);
    int position = at >= 0 ? at : -at - 1;
    if (position < plan.limit()) {
      best.add(position, record);
      if (best.size() > plan.limit()) {
        best.remove(best.size() - 1);
      }
      state.update(best);
    }
  }

  private void processUnbounded(Record record, Output out) {
    backend.setCurrentKey(partition.keyOf(record));
    List<Record> best = state.value();
    if (best == null) {
      best = new ArrayList<>(Math.min(plan.limit(), 16));
    }
    int at = Collections.binarySearch(best, record, order);
    int position = at >= 0 ? at : -at - 1;
    if (position >= plan.limit()) {
      return;
    }
    List<Record> before = new ArrayList<>(best);
    best.add(position, record);
    if (best.size() > plan.limit()) {
      best.remove(best.size() - 1);
    }
    state.update(best);
    // Without a rank field (one row per partition) only the first rank is a result.
    int last = plan.rankField() == null ? 0 : best.size() - 1;
    for (int i = position; i <= last; i++) {
      Record now = best.get(i);
      boolean filled = i < before.size();
      if (filled && order.compare(before.get(i), now) == 0) {
        continue;
      }
      out.emit(change(ranked(now, i + 1, now.timestamp()), filled));
    }
  }

  /** The row as a change of an upsert stream: {@code _op} first. */
  private Record change(Record row, boolean update) {
    if (row.schema() != lastChangeIn) {
      List<String> names = new ArrayList<>();
      names.add(Changelog.FIELD);
      names.addAll(row.schema().names());
      lastChangeOut = Schema.of(names);
      lastChangeIn = row.schema();
    }
    Object[] values = new Object[lastChangeOut.size()];
    values[0] = update ? Changelog.UPDATE : Changelog.INSERT;
    System.arraycopy(row.values(), 0, values, 1, row.values().length);
    return new Record(lastChangeOut, values, row.timestamp());
  }

  @Override
  public void onTimer(Timer timer, Output out) {
    List<Record> best = state.value();
    if (best == null) {
      return;
    }
    state.clear();
    for (int i = 0; i < best.size(); i++) {
      out.emit(ranked(best.get(i), i + 1, timer.time()));
    }
  }

  /** The row with its rank (when a rank field is named; an input field of that name is replaced). */
  private Record ranked(Record row, long rank, long timestamp) {
    if (plan.rankField() == null) {
      return row.withTimestamp(timestamp);
    }
    if (row.schema() != lastIn) {
      List<String> names = new ArrayList<>(row.schema().names());
      rankIndex = names.indexOf(plan.rankField());
      if (rankIndex < 0) {
        names.add(plan.rankField());
        rankIndex = names.size() - 1;
      }
      lastOut = Schema.of(names);
      lastIn = row.schema();
    }
    Object[] values = java.util.Arrays.copyOf(row.values(), lastOut.size());
    values[rankIndex] = rank;
    return new Record(lastOut, values, timestamp);
  }
}
