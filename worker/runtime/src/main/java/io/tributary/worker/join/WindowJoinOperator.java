package io.tributary.worker.join;

import io.tributary.expr.ExpressionException;
import io.tributary.plan.JoinPlan;
import io.tributary.state.Key;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.WindowState;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import io.tributary.worker.operator.TwoInputOperator;
import io.tributary.worker.window.SessionMerge;
import io.tributary.worker.window.TimeWindow;
import io.tributary.worker.window.WindowAssigner;
import io.tributary.worker.window.WindowOperator;

/**
 * The window join: a left and a right record of equal keys join when they fall into the same
 * event-time window (tumbling, sliding, or a session that records of either side extend and
 * merge); the window's pairs are emitted when the watermark reaches its end ({@code window_end -
 * 1}), then its state is dropped.
 *
 * <ul>
 *   <li>State: per (key, window) the records of both sides ({@link WindowRows}) in keyed window
 *       state; one event-time timer per (key, window) at its end.
 *   <li>A record none of whose windows is still open ({@code window_end - 1 <= watermark}) is late:
 *       dropped and counted. Within the watermark bound nothing is late, so the results do not
 *       depend on the order records arrive in.
 *   <li>A record without a timestamp is malformed; one with a null key field joins nothing (SQL's
 *       {@code NULL = NULL} is not true) and is dropped; a pair whose filter or select cannot be
 *       evaluated is counted as malformed.
 * </ul>
 */
public final class WindowJoinOperator implements TwoInputOperator {
  static final String STATE_NAME = "join-window";

  private final JoinPlan plan;
  private final KeySelector[] keys;
  private final WindowAssigner assigner;
  private final long gap;
  private JoinRows rows;
  private KeyedStateBackend backend;
  private TimerService timers;
  private OperatorMetrics metrics;
  private WindowState<TimeWindow, WindowRows> state;

  public WindowJoinOperator(JoinPlan plan) {
    if (plan.type() != JoinPlan.Type.WINDOW) {
      throw new IllegalArgumentException("not a window join: " + plan.type());
    }
    this.plan = plan;
    this.keys = new KeySelector[] {new KeySelector(plan.leftKeys()), new KeySelector(plan.rightKeys())};
    this.assigner = WindowAssigner.of(plan.window());
    this.gap = plan.window().gapMillis();
    if (assigner == null && gap <= 0) {
      throw new IllegalArgumentException("session gap must be positive, got " + gap);
    }
  }

  /** The codec of this operator's timer namespaces (its windows), for timer snapshots. */
  public static StateCodec<TimeWindow> namespaceCodec() {
    return WindowOperator.namespaceCodec();
  }

  @Override
  public void open(OperatorContext context) {
    rows = new JoinRows(plan);
    backend = context.keyedState();
    timers = context.timers();
    metrics = context.metrics();
    state = backend.windowState(STATE_NAME, namespaceCodec(), WindowRows.CODEC);
  }

  @Override
  public void processElement(int input, Record record, Output out) {
    long ts = record.timestamp();
    if (ts == Record.NO_TIMESTAMP) {
      metrics.incMalformed();
      return;
    }
    Key key = keys[input].keyOf(record);
    if (JoinKeys.hasNull(key, keys[input].fields().size())) {
      return;
    }
    long watermark = timers.currentWatermark();
    boolean accepted = assigner != null ? addToAligned(input, record, key, watermark)
        : addToSession(input, record, key, watermark);
    if (!accepted) {
      metrics.incLateDropped();
    }
  }

  private boolean addToAligned(int input, Record record, Key key, long watermark) {
    TimeWindow[] windows = assigner.assign(record.timestamp());
    if (windows.length == 0) {
      return true; // in a gap between sliding windows: belongs to no window
    }
    if (windows[0].maxTimestamp() <= watermark) {
      return false;
    }
    backend.setCurrentKey(key);
    for (TimeWindow w : windows) {
      if (w.maxTimestamp() > watermark) {
        WindowRows contents = state.get(w);
        if (contents == null) {
          contents = new WindowRows();
          timers.register(w, w.maxTimestamp());
        }
        contents.side(input).add(record);
        state.put(w, contents);
      }
    }
    return true;
  }

  /** Sessions of either side that the record's {@code [ts, ts + gap)} touches merge into one. */
  private boolean addToSession(int input, Record record, Key key, long watermark) {
    backend.setCurrentKey(key);
    long ts = record.timestamp();
    SessionMerge merge = SessionMerge.of(ts, gap, state.windows());
    TimeWindow merged = merge.merged();
    if (merged.maxTimestamp() <= watermark) {
      return false;
    }
    WindowRows contents = new WindowRows();
    for (TimeWindow w : merge.touched()) {
      contents.addAll(state.get(w));
      state.remove(w);
      timers.delete(w, w.maxTimestamp());
    }
    contents.side(input).add(record);
    state.put(merged, contents);
    timers.register(merged, merged.maxTimestamp());
    return true;
  }

  @Override
  public void onTimer(Timer timer, Output out) {
    TimeWindow w = (TimeWindow) timer.namespace();
    WindowRows contents = state.get(w);
    if (contents == null) {
      return;
    }
    state.remove(w);
    for (Record l : contents.left) {
      for (Record r : contents.right) {
        emit(l, r, w, out);
      }
    }
  }

  private void emit(Record left, Record right, TimeWindow w, Output out) {
    try {
      Record joined = rows.join(left, right, w.start(), w.end(), w.maxTimestamp());
      if (joined != null) {
        out.emit(joined);
      }
    } catch (ExpressionException e) {
      metrics.incMalformed();
    }
  }
}
