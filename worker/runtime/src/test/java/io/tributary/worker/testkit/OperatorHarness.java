package io.tributary.worker.testkit;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.heap.HeapKeyedStateBackend;
import io.tributary.stream.Record;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import io.tributary.worker.timer.HeapTimerService;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Drives one {@link Operator} without a cluster, the way the runtime task does: a real
 * {@link HeapKeyedStateBackend} for the key groups of subtask {@code i} of {@code p}, a real
 * {@link HeapTimerService}, timers fired one at a time before the watermark is handed on.
 *
 * <p>Invariant checks are always on and fail the test with an {@link AssertionError}: watermarks
 * never go back, barrier ids only grow, nothing comes after the end of input, nothing is emitted
 * after {@code finish}.
 *
 * <p>The harness is built from a factory rather than an instance: snapshot and restore, which
 * come with the checkpoint issue, will snapshot the state backend and timers at a barrier and
 * restore them into a fresh instance from this factory (STYLE.md rule 4).
 *
 * <pre>{@code
 * OperatorHarness h = OperatorHarness.of(() -> new WindowOperator(plan)).open();
 * Rows.parse(table, "ts").forEach(h::processElement);
 * h.processWatermark(10_000);
 * assertThat(h.output()).hasSize(3);
 * }</pre>
 */
public final class OperatorHarness implements AutoCloseable {
  private final Supplier<? extends Operator> factory;
  private final CollectingOutput output = new CollectingOutput();
  private final OperatorMetrics metrics = new OperatorMetrics();
  private final List<Long> forwardedWatermarks = new ArrayList<>();
  private String jobName = "test-job";
  private String operatorId = "op";
  private int maxParallelism = 128;
  private int parallelism = 1;
  private int subtaskIndex = 0;
  private Operator operator;
  private HeapKeyedStateBackend backend;
  private HeapTimerService timers;
  private long watermark = Long.MIN_VALUE;
  private long lastBarrier = Long.MIN_VALUE;
  private boolean ended;

  private OperatorHarness(Supplier<? extends Operator> factory) {
    this.factory = factory;
  }

  /** A harness for operators made by {@code factory}; configure it, then {@link #open()}. */
  public static OperatorHarness of(Supplier<? extends Operator> factory) {
    return new OperatorHarness(factory);
  }

  /** Runs as subtask {@code index} of {@code parallelism} among {@code maxParallelism} key groups. */
  public OperatorHarness subtask(int index, int parallelism, int maxParallelism) {
    checkNotOpen();
    this.subtaskIndex = index;
    this.parallelism = parallelism;
    this.maxParallelism = maxParallelism;
    return this;
  }

  public OperatorHarness operatorId(String id) {
    checkNotOpen();
    this.operatorId = id;
    return this;
  }

  /** Creates the operator, its state backend and timers, and calls {@code open}. */
  public OperatorHarness open() {
    checkNotOpen();
    KeyGroupRange range = KeyGroups.rangeFor(maxParallelism, parallelism, subtaskIndex);
    backend = new HeapKeyedStateBackend(range, maxParallelism);
    timers = new HeapTimerService(backend);
    operator = factory.get();
    operator.open(new Context());
    return this;
  }

  public void processElement(Record record) {
    checkRunning("a record");
    operator.processElement(record, output);
  }

  public void processElements(List<Record> records) {
    records.forEach(this::processElement);
  }

  /**
   * Advances event time: fires every due timer one at a time (as the runtime task does), then
   * calls {@code onWatermark}. Returns the watermark the operator forwards.
   */
  public long processWatermark(long wm) {
    checkRunning("a watermark");
    if (wm < watermark) {
      throw new AssertionError("watermark went back from " + watermark + " to " + wm);
    }
    watermark = wm;
    Timer timer;
    while ((timer = timers.pollDue(wm)) != null) {
      operator.onTimer(timer, output);
    }
    timers.advanceWatermark(wm);
    long forwarded = operator.onWatermark(wm, output);
    forwardedWatermarks.add(forwarded);
    return forwarded;
  }

  public void processBarrier(long checkpointId) {
    checkRunning("a barrier");
    if (checkpointId <= lastBarrier) {
      throw new AssertionError("barrier " + checkpointId + " after barrier " + lastBarrier);
    }
    lastBarrier = checkpointId;
    operator.onBarrier(checkpointId);
  }

  /** Ends the input: the final watermark {@code Long.MAX_VALUE}, then {@code finish}. */
  public void endInput() {
    checkRunning("end of input");
    if (watermark < Long.MAX_VALUE) {
      processWatermark(Long.MAX_VALUE);
    }
    operator.finish(output);
    ended = true;
    output.closed = true;
  }

  /** Main output, in emission order. */
  public List<Record> output() {
    return Collections.unmodifiableList(output.main);
  }

  /** Records sent to side output {@code name} (empty when none). */
  public List<Record> sideOutput(String name) {
    return Collections.unmodifiableList(output.sides.getOrDefault(name, List.of()));
  }

  /** Forgets the output collected so far (records stay where they went). */
  public void clearOutput() {
    output.main.clear();
    output.sides.clear();
  }

  /** Watermarks the operator forwarded, one per {@link #processWatermark}. */
  public List<Long> forwardedWatermarks() {
    return Collections.unmodifiableList(forwardedWatermarks);
  }

  public OperatorMetrics metrics() {
    return metrics;
  }

  public HeapKeyedStateBackend stateBackend() {
    return backend;
  }

  public HeapTimerService timers() {
    return timers;
  }

  public Operator operator() {
    return operator;
  }

  @Override
  public void close() {
    if (operator != null) {
      operator.close();
      backend.close();
    }
  }

  private void checkNotOpen() {
    if (operator != null) {
      throw new IllegalStateException("harness already open");
    }
  }

  private void checkRunning(String what) {
    if (operator == null) {
      throw new IllegalStateException("open() the harness before sending " + what);
    }
    if (ended) {
      throw new AssertionError(what + " after end of input");
    }
  }

  private static final class CollectingOutput implements Output {
    final List<Record> main = new ArrayList<>();
    final Map<String, List<Record>> sides = new LinkedHashMap<>();
    boolean closed;

    @Override
    public void emit(Record record) {
      checkOpen(record);
      main.add(record);
    }

    @Override
    public void emitSide(String name, Record record) {
      checkOpen(record);
      sides.computeIfAbsent(name, n -> new ArrayList<>()).add(record);
    }

    private void checkOpen(Record record) {
      if (closed) {
        throw new AssertionError("emitted after finish: " + record);
      }
    }
  }

  private final class Context implements OperatorContext {
    @Override
    public String jobName() {
      return jobName;
    }

    @Override
    public String operatorId() {
      return operatorId;
    }

    @Override
    public int subtaskIndex() {
      return subtaskIndex;
    }

    @Override
    public int parallelism() {
      return parallelism;
    }

    @Override
    public int maxParallelism() {
      return maxParallelism;
    }

    @Override
    public KeyedStateBackend keyedState() {
      return backend;
    }

    @Override
    public TimerService timers() {
      return timers;
    }

    @Override
    public OperatorMetrics metrics() {
      return metrics;
    }
  }
}
