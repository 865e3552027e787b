package io.tributary.worker.window;

import io.tributary.expr.ExpressionException;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.WindowState;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.aggregate.Accumulator;
import io.tributary.worker.aggregate.AccumulatorCodec;
import io.tributary.worker.aggregate.Aggregates;
import io.tributary.worker.operator.TimerService;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Keyed event-time windows with incremental aggregates, with Flink's semantics (contract C4).
 *
 * <ul>
 *   <li>Tumbling and sliding windows align to the epoch. A session is {@code [first ts, last ts +
 *       gap)}; sessions that overlap or touch merge.
 *   <li>One {@link Accumulator} per (key, window) in keyed {@link WindowState} (or per pane, below).
 *   <li>A window fires when the watermark reaches {@code window_end - 1} (an event-time timer);
 *       the result carries revision 0.
 *   <li>A window is late once {@code window_end - 1 + allowedLateness <= watermark}; its state
 *       is purged then (a cleanup timer). A record whose windows are all late goes to the late
 *       output if declared, else is dropped; both are counted.
 *   <li>A record for a fired window that is not late yet updates it and the updated result is
 *       emitted at once with the next revision (counted as re-fired).
 *   <li>Session merging: when a record merges sessions (or extends one), the merged session
 *       replaces them. Its revision continues from the highest revision among the merged
 *       sessions, so a result for the merged session has revision {@code max + 1} and supersedes
 *       the earlier results of every session it absorbed. It is emitted when the watermark
 *       reaches its end, at once if it already has. As in Flink, a record whose own session
 *       would be late is still accepted when it merges into a session that is not late.
 *   <li>Records without a timestamp, and records whose aggregate arguments fail to evaluate,
 *       are counted as malformed and dropped.
 * </ul>
 *
 * <p>Per record the operator allocates the key and, for a new window, its accumulator; on a state
 * that adds without reading (forst), an accumulator per record and window while the window's end
 * is ahead, which the state folds in when it reads the window. Tumbling and sliding windows are
 * shared between records of the same slide period.
 *
 * <p><b>Panes.</b> On a state that reads what it adds (the heap), a sliding window whose size is a
 * multiple of its slide is made of panes, windows one slide long: a record goes to its pane (one
 * accumulator) instead of to each of its {@code size / slide} windows, and a window folds its
 * panes into an accumulator of its own when it first fires. Once fired it is kept as before (within
 * the allowed lateness, a record for it updates it and re-fires it), and the pane that starts with
 * it is dropped (no later window holds it). Panes are taken only when every aggregate merges
 * exactly (count, count distinct, min, max): a sum of doubles folded pane by pane could differ in
 * its last bits from the record-by-record sum of Flink's windows. A window's timers stay those of the
 * window (registered when its first pane appears), so state written per window, by an operator that
 * does not slice, fires the same: a window that fires folds in whatever panes it has and whatever
 * it holds itself.
 */
public final class WindowOperator implements Operator {
  static final String STATE_NAME = "window-contents";
  /**
   * Up to how many panes a window is folded by looking each one up; a window of more panes is folded
   * from the key's entries, which a key with few records has few of (a day every minute would look
   * up 1,440 panes at every firing, whatever the key holds; at 60 panes a window and one record per
   * key and pane, folding from the entries took 10-15% less CPU than looking each up).
   */
  private static final long FOLD_BY_LOOKUP = 16;
  /** The aggregates whose accumulators merge to exactly what adding their records one by one gives. */
  private static final Set<AggregatePlan.Function> MERGE_EXACTLY = EnumSet.of(AggregatePlan.Function.COUNT,
      AggregatePlan.Function.COUNT_DISTINCT, AggregatePlan.Function.MIN, AggregatePlan.Function.MAX);

  private final WindowAggregatePlan plan;
  private final KeySelector keySelector;
  private final Aggregates aggregates;
  private final WindowResults results;
  private final WindowAssigner aligned;
  /** The panes of a sliding window whose size is a multiple of its slide; null for other windows. */
  private final AlignedWindows panes;
  private final long slide;
  /** Panes per window (size / slide) when the window is made of panes. */
  private final long panesPerWindow;
  /** Whether {@link #panes} may hold records (on a state that reads what it adds): windows fold them in as they fire. */
  private boolean panesInState;
  /** Whether records go to their pane (also: every aggregate merges exactly), not to each of their windows. */
  private boolean slicing;
  private final long gap;
  private final long lateness;
  private KeyedStateBackend backend;
  private TimerService timers;
  private OperatorMetrics metrics;
  private WindowState<TimeWindow, Accumulator> state;
  /** Whether the state adds a record's accumulator without reading the window's ({@link WindowState#add}). */
  private boolean addBlind;

  /**
   * An operator for {@code plan}. Aggregate arguments that are not plain field names are compiled
   * here, so build one instance per task thread.
   */
  public WindowOperator(WindowAggregatePlan plan) {
    this.plan = plan;
    this.keySelector = new KeySelector(plan.keyBy());
    this.aggregates = new Aggregates(plan.aggregates());
    this.results = new WindowResults(
        plan.keyBy(), plan.aggregates().stream().map(AggregatePlan::name).toList(), aggregates);
    WindowPlan w = plan.window();
    this.aligned = WindowAssigner.of(w);
    this.slide = w.slideMillis();
    boolean madeOfPanes = w.type() == WindowPlan.Type.SLIDING && w.sizeMillis() > slide && w.sizeMillis() % slide == 0;
    this.panes = madeOfPanes ? new AlignedWindows(slide, slide) : null;
    this.panesPerWindow = madeOfPanes ? w.sizeMillis() / slide : 0;
    this.gap = w.gapMillis();
    if (aligned == null && gap <= 0) {
      throw new IllegalArgumentException("session gap must be positive, got " + gap);
    }
    if (plan.allowedLatenessMillis() < 0) {
      throw new IllegalArgumentException("allowed lateness must not be negative");
    }
    this.lateness = plan.allowedLatenessMillis();
  }

  /** The codec of the namespace of this operator's timers (a {@link TimeWindow}), for timer snapshots. */
  public static StateCodec<TimeWindow> namespaceCodec() {
    return TimeWindowCodec.INSTANCE;
  }

  @Override
  public void open(OperatorContext context) {
    backend = context.keyedState();
    timers = context.timers();
    metrics = context.metrics();
    state = backend.windowState(STATE_NAME, TimeWindowCodec.INSTANCE, AccumulatorCodec.INSTANCE, this::combine);
    addBlind = state.addsWithoutReading();
    panesInState = panes != null && !addBlind;
    slicing = panesInState && plan.aggregates().stream().allMatch(a -> MERGE_EXACTLY.contains(a.function()));
  }

  /** Whether records go to their pane, not to each of their windows (see the class doc); after {@link #open}. */
  boolean slicing() {
    return slicing;
  }

  /** For tests: records to each of their windows even where panes would do (state written by an earlier version). */
  void slicing(boolean on) {
    slicing = on && panesInState;
  }

  /** Folds {@code delta} into {@code into} as session merging does: its records, and whether it is pending. */
  private void combine(Accumulator into, Accumulator delta) {
    aggregates.mergeInto(into, delta);
    into.revision = Math.max(into.revision, delta.revision);
    into.pending |= delta.pending;
  }

  @Override
  public void processElement(Record record, Output out) {
    long ts = record.timestamp();
    if (ts == Record.NO_TIMESTAMP || !evaluated(record)) {
      metrics.incMalformed();
      return;
    }
    long watermark = timers.currentWatermark();
    boolean accepted = aligned != null
        ? addToAligned(record, ts, watermark, out)
        : addToSession(record, ts, watermark, out);
    if (!accepted) {
      late(record, out);
    }
  }

  private boolean evaluated(Record record) {
    try {
      aggregates.evaluate(record);
      return true;
    } catch (ExpressionException e) {
      return false;
    }
  }

  private boolean addToAligned(Record record, long ts, long watermark, Output out) {
    TimeWindow[] windows = aligned.assign(ts);
    if (windows.length == 0) {
      return true; // in a gap between sliding windows: belongs to no window
    }
    if (isLate(windows[0], watermark)) { // windows[0] ends last
      return false;
    }
    backend.setCurrentKey(keySelector.keyOf(record));
    if (slicing) {
      addToPane(windows, watermark, out);
      return true;
    }
    for (TimeWindow w : windows) {
      if (addBlind && w.maxTimestamp() > watermark) {
        addUnread(w, watermark); // not late, and its end not reached: nothing to emit now
      } else if (!isLate(w, watermark)) {
        addToWindow(w, watermark, out);
      }
    }
    return true;
  }

  /** Adds the evaluated record to {@code w}'s own accumulator (made, with its timers, if it has none). */
  private void addToWindow(TimeWindow w, long watermark, Output out) {
    Accumulator acc = state.get(w);
    if (acc == null) {
      acc = aggregates.newAccumulator();
      registerTimers(w, watermark);
    }
    update(w, acc, watermark, out);
  }

  /**
   * Adds the evaluated record to its pane, for its windows still ahead. A window that fired (and is
   * not late) takes it at once, into its own accumulator, as without panes: the task takes no record
   * while timers of its watermark are due, so such a window has fired already, folding its panes in.
   */
  private void addToPane(TimeWindow[] windows, long watermark, Output out) {
    for (TimeWindow w : windows) {
      if (w.maxTimestamp() <= watermark && !isLate(w, watermark)) {
        addToWindow(w, watermark, out);
      }
    }
    if (windows[0].maxTimestamp() <= watermark) { // windows[0] ends last: every window has fired
      return;
    }
    TimeWindow pane = panes.window(windows[0].start()); // windows[0] starts with the record's pane
    Accumulator acc = state.get(pane);
    if (acc == null) {
      acc = aggregates.newAccumulator();
      registerPaneTimers(pane, windows, watermark);
    }
    aggregates.addTo(acc);
    state.put(pane, acc);
  }

  /**
   * Registers the timers of a new pane's windows that have not fired. Every window of the pane
   * before it that has not fired has its timers already (registered when that pane appeared, when
   * the window had not fired either), and they are all of this pane's windows but the one that starts
   * with it: with the pane before it there, only that one is registered.
   */
  private void registerPaneTimers(TimeWindow pane, TimeWindow[] windows, long watermark) {
    if (state.get(panes.window(pane.start() - slide)) != null) {
      registerTimers(windows[0], watermark); // not fired: it ends last
      return;
    }
    for (TimeWindow w : windows) {
      if (w.maxTimestamp() > watermark) {
        registerTimers(w, watermark);
      }
    }
  }

  /**
   * {@code acc} (null: none) with the current key's panes of {@code w} merged in: what {@code w} holds
   * before it first fires. Null when neither holds anything.
   */
  private Accumulator withPanes(TimeWindow w, Accumulator acc) {
    if (panesPerWindow <= FOLD_BY_LOOKUP) {
      for (long start = w.start(); start < w.end(); start += slide) {
        acc = mergePane(acc, state.get(panes.window(start)));
      }
      return acc;
    }
    for (TimeWindow ns : state.windows()) {
      if (ns.end() - ns.start() == slide && ns.start() >= w.start() && ns.end() <= w.end()) {
        acc = mergePane(acc, state.get(ns));
      }
    }
    return acc;
  }

  /** {@code acc} (null: none) with {@code pane} (null: none) merged in. */
  private Accumulator mergePane(Accumulator acc, Accumulator pane) {
    if (pane == null) {
      return acc;
    }
    if (acc == null) {
      acc = aggregates.newAccumulator();
    }
    aggregates.mergeInto(acc, pane);
    acc.pending = true;
    return acc;
  }

  /**
   * Adds the evaluated record to {@code w} as an accumulator of its own, which the state folds into
   * the window's when it next reads it: so a window whose accumulator is not cached costs no read
   * per record. Registering the window's timers again when the state cannot tell whether it is new
   * changes nothing (timers are sets), and none of them has fired while its end is ahead.
   */
  private void addUnread(TimeWindow w, long watermark) {
    Accumulator delta = aggregates.newAccumulator();
    aggregates.addTo(delta);
    delta.pending = true;
    if (!state.add(w, delta)) {
      registerTimers(w, watermark);
    }
  }

  private boolean addToSession(Record record, long ts, long watermark, Output out) {
    backend.setCurrentKey(keySelector.keyOf(record));
    SessionMerge merge = SessionMerge.of(ts, gap, state.windows());
    TimeWindow merged = merge.merged();
    if (isLate(merged, watermark)) {
      return false;
    }
    Accumulator acc;
    if (merge.intoOneAsItIs()) {
      acc = state.get(merged);
    } else {
      acc = mergeSessions(merge.touched(), merged, watermark);
    }
    update(merged, acc, watermark, out);
    return true;
  }

  /**
   * Replaces the {@code touched} sessions (maybe none) by {@code merged}; returns its accumulator:
   * the first touched session's, which leaves the state here, with the others merged in (a record
   * that extends one session copies nothing).
   */
  private Accumulator mergeSessions(List<TimeWindow> touched, TimeWindow merged, long watermark) {
    Accumulator acc = null;
    for (TimeWindow w : touched) {
      Accumulator old = state.get(w);
      if (acc == null) {
        acc = old;
      } else if (old != null) {
        aggregates.mergeInto(acc, old);
        acc.revision = Math.max(acc.revision, old.revision);
        acc.pending |= old.pending;
      }
      state.remove(w);
      deleteTimers(w);
    }
    registerTimers(merged, watermark);
    return acc != null ? acc : aggregates.newAccumulator();
  }

  /** Adds the evaluated record to {@code acc}; emits at once when the window's end has passed. */
  private void update(TimeWindow w, Accumulator acc, long watermark, Output out) {
    aggregates.addTo(acc);
    acc.pending = true;
    if (w.maxTimestamp() <= watermark) {
      emit(w, acc, out);
    }
    state.put(w, acc);
  }

  private void registerTimers(TimeWindow w, long watermark) {
    long end = w.maxTimestamp();
    long cleanup = cleanupTime(w);
    if (end > watermark && end != cleanup) { // without lateness the one timer both fires and cleans up
      timers.register(w, end);
    }
    timers.register(w, cleanup);
  }

  /** Deletes the timers {@link #registerTimers} registered for {@code w}. */
  private void deleteTimers(TimeWindow w) {
    long end = w.maxTimestamp();
    long cleanup = cleanupTime(w);
    timers.delete(w, end);
    if (cleanup != end) { // without lateness the one timer both fires and cleans up
      timers.delete(w, cleanup);
    }
  }

  @Override
  public void onTimer(Timer timer, Output out) {
    TimeWindow w = (TimeWindow) timer.namespace();
    Accumulator acc = state.get(w);
    if (panesInState && timer.time() == w.maxTimestamp()) { // the window fires for the first time
      if (acc == null || acc.revision < 0) {
        acc = withPanes(w, acc);
      }
      state.remove(panes.window(w.start())); // no later window holds the pane that starts with w
    }
    if (acc == null) {
      return;
    }
    boolean cleanup = timer.time() >= cleanupTime(w);
    if (acc.pending && timer.time() >= w.maxTimestamp()) {
      emit(w, acc, out);
      if (!cleanup) {
        state.put(w, acc); // the emitted revision, for the late firings to come
      }
    }
    if (cleanup) {
      state.remove(w);
    }
  }

  private void emit(TimeWindow w, Accumulator acc, Output out) {
    acc.revision++;
    acc.pending = false;
    if (acc.revision > 0) {
      metrics.incRefired();
    }
    out.emit(results.result(backend.currentKey(), w, acc));
  }

  private void late(Record record, Output out) {
    if (plan.lateOutput() != null) {
      metrics.incLateSideOutput();
      out.emitSide(plan.lateOutput(), record);
    } else {
      metrics.incLateDropped();
    }
  }

  private boolean isLate(TimeWindow w, long watermark) {
    return cleanupTime(w) <= watermark;
  }

  private long cleanupTime(TimeWindow w) {
    return SessionMerge.saturatedAdd(w.maxTimestamp(), lateness);
  }
}
