package io.tributary.testkit;

import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.StateSnapshot;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.forst.rocks.ForstConfig;
import io.tributary.state.forst.rocks.ForstStateBackendFactory;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.state.store.ObjectStore;
import io.tributary.stream.Record;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.OperatorContext;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Output;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import io.tributary.worker.operator.TwoInputOperator;
import io.tributary.worker.timer.TaskTimers;
import java.io.DataInput;
import java.io.DataOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Drives one {@link Operator} without a cluster, the way the runtime task does: a real keyed
 * state backend (heap, or forst with {@link #forstState}) for the key groups of subtask {@code i}
 * of {@code p}, the timers the runtime gives it ({@link TaskTimers#of}: on the heap, or in the
 * forst backend), timers fired one at a time before the watermark is handed on.
 *
 * <p>Invariant checks are always on and fail the test with an {@link AssertionError}: watermarks
 * never go back, barrier ids only grow, nothing comes after the end of input, nothing is emitted
 * after {@code finish}, no input arrives while a watermark is still being applied.
 *
 * <p>A {@link TwoInputOperator} gets its records through {@link #processElement(int, Record)}.
 * With {@link #refuseEveryOtherOffer()} the output has room for one record at a time: as the task
 * stops firing timers while downstream has no credit (contract C2), {@link #processWatermark}
 * stops after a firing whose output found no room and leaves the watermark pending until
 * {@link #resumeWatermark()} finishes it; {@link Script} drives that loop.
 *
 * <p>The harness is built from a factory rather than an instance, so that
 * {@link #snapshotAndRestore()} can snapshot the state backend and the timers at a barrier, throw
 * the operator away and restore into a fresh instance from the factory. The
 * snapshot's upload is only awaited after the old instance and its state are closed, so a
 * snapshot that still read live state would fail. {@link #snapshot()} and {@link #restore(List)}
 * move state between harnesses, to test rescaling. Timers need the operator's namespace codec
 * ({@link #timerNamespaceCodec}); state goes to an {@link InMemoryObjectStore} unless
 * {@link #objectStore} says otherwise.
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
  private ObjectStore objectStore;
  private StateCodec<?> timerNamespaceCodec;
  private StateBackendFactory stateFactory;
  /** Where a forst backend keeps its local files, when the harness runs on forst; else null. */
  private Path forstLocalDir;
  /** The state cache's bound in entries of a forst harness; negative: the default. */
  private long forstStateCacheEntries = -1;
  private Operator operator;
  private KeyedStateBackend backend;
  private TaskTimers timers;
  private long watermark = Long.MIN_VALUE;
  private long lastBarrier = Long.MIN_VALUE;
  private boolean ended;
  /** The output refuses every other offer: timers fire one firing at a time. */
  private boolean stingy;
  /** A watermark whose due timers have not all fired yet, or {@code Long.MIN_VALUE}. */
  private long pendingWatermark = Long.MIN_VALUE;

  /** The local file cache budget of a forst harness. */
  private static final long FORST_CACHE_BYTES = 256L << 20;

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

  /** Where snapshots go; share one store between harnesses that restore each other's snapshots. */
  public OperatorHarness objectStore(ObjectStore store) {
    checkNotOpen();
    this.objectStore = store;
    return this;
  }

  /**
   * Keeps the operator's keyed state in the {@code forst} backend (RocksDB, files in the harness's
   * object store) instead of on the heap: the same operator tests then check that the operator works
   * on either backend, snapshots and restores included. RocksDB's working files go under
   * {@code localDir}, a cache: one directory per harness.
   */
  public OperatorHarness forstState(Path localDir) {
    checkNotOpen();
    this.forstLocalDir = localDir;
    return this;
  }

  /**
   * Like {@link #forstState(Path)}, with a state cache of at most {@code stateCacheEntries} entries
   * (0: none), so that tests can make the operator's state leave the cache.
   */
  public OperatorHarness forstState(Path localDir, long stateCacheEntries) {
    forstState(localDir);
    this.forstStateCacheEntries = stateCacheEntries;
    return this;
  }

  /**
   * Gives the operator an output that refuses every other offer: a watermark then fires its due
   * timers only until a firing's output found no room, and stays pending (see {@link
   * #hasPendingWatermark}) until {@link #resumeWatermark()} completes it.
   */
  public OperatorHarness refuseEveryOtherOffer() {
    this.stingy = true;
    return this;
  }

  /** The codec of the namespaces the operator registers timers with; needed to snapshot timers. */
  public OperatorHarness timerNamespaceCodec(StateCodec<?> codec) {
    checkNotOpen();
    this.timerNamespaceCodec = codec;
    return this;
  }

  /** Creates the operator, its state backend and timers, and calls {@code open}. */
  public OperatorHarness open() {
    return restore(List.of());
  }

  /**
   * Like {@link #open()}, but starts from {@code snapshots} (of this or other harnesses on the
   * same object store, at any parallelism): the state and timers of this subtask's key groups.
   * The watermark starts at the lowest watermark among the snapshots.
   */
  public OperatorHarness restore(List<OperatorSnapshot> snapshots) {
    checkNotOpen();
    if (objectStore == null) {
      objectStore = new InMemoryObjectStore();
    }
    if (stateFactory == null) {
      stateFactory = forstLocalDir == null ? new HeapStateBackendFactory(objectStore)
          : ForstStateBackendFactory.fromConfig(forstStateCacheEntries < 0
              ? new ForstConfig(objectStore, forstLocalDir, FORST_CACHE_BYTES, 16L << 20, 8L << 20)
              : new ForstConfig(objectStore, forstLocalDir, FORST_CACHE_BYTES, 16L << 20, 8L << 20,
                  forstStateCacheEntries));
    }
    KeyGroupRange range = KeyGroups.rangeFor(maxParallelism, parallelism, subtaskIndex);
    backend = stateFactory.restore(jobName, operatorId, range, maxParallelism,
        snapshots.stream().map(OperatorSnapshot::state).toList());
    timers = TaskTimers.of(backend, namespaceCodec());
    for (OperatorSnapshot s : snapshots) {
      timers.restore(s.timers(), namespaceCodec(), range, maxParallelism);
      lastBarrier = Math.max(lastBarrier, s.checkpointId());
    }
    if (!snapshots.isEmpty()) {
      watermark = Math.max(watermark, timers.currentWatermark());
    }
    operator = factory.get();
    operator.open(new Context());
    return this;
  }

  /**
   * Passes a barrier (the next checkpoint id) and snapshots the state backend and the timers, as
   * the runtime task will; processing may go on afterwards.
   */
  public OperatorSnapshot snapshot() {
    return takeSnapshot().join();
  }

  /**
   * Snapshots at a barrier, closes the operator and its state, and continues with a fresh
   * instance from the factory restored from that snapshot (same subtask). Output and metrics
   * carry over.
   */
  public OperatorHarness snapshotAndRestore() {
    CompletableFuture<OperatorSnapshot> snapshot = takeSnapshot();
    operator.close();
    backend.close(); // drops every live object: the upload must not need them any more
    operator = null;
    OperatorSnapshot taken = snapshot.join();
    return restore(List.of(taken));
  }

  private CompletableFuture<OperatorSnapshot> takeSnapshot() {
    long checkpointId = lastBarrier < 0 ? 1 : lastBarrier + 1;
    processBarrier(checkpointId);
    byte[] timerBytes = timers.snapshot(namespaceCodec());
    return backend.snapshot(checkpointId).thenApply(s -> new OperatorSnapshot(checkpointId, s, timerBytes));
  }

  @SuppressWarnings("unchecked")
  private StateCodec<Object> namespaceCodec() {
    return timerNamespaceCodec != null ? (StateCodec<Object>) timerNamespaceCodec : NO_NAMESPACE_CODEC;
  }

  /** Stands in when no namespace codec was given: fine as long as there are no timers. */
  private static final StateCodec<Object> NO_NAMESPACE_CODEC = new StateCodec<>() {
    @Override
    public void write(Object value, DataOutput out) {
      throw new IllegalStateException("the operator has timers: set the harness's timerNamespaceCodec");
    }

    @Override
    public Object read(DataInput in) {
      throw new IllegalStateException("the snapshot has timers: set the harness's timerNamespaceCodec");
    }
  };

  /** A snapshot of one operator instance: keyed state and timers, taken at barrier {@code checkpointId}. */
  public record OperatorSnapshot(long checkpointId, StateSnapshot state, byte[] timers) {}

  public void processElement(Record record) {
    checkRunning("a record");
    operator.processElement(record, output);
  }

  /**
   * A record of input {@code input}: a {@link TwoInputOperator} is told which ({@link
   * TwoInputOperator#LEFT} or {@link TwoInputOperator#RIGHT}); other operators take it as any record.
   */
  public void processElement(int input, Record record) {
    checkRunning("a record");
    if (operator instanceof TwoInputOperator two) {
      two.processElement(input, record, output);
    } else {
      operator.processElement(record, output);
    }
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
    pendingWatermark = wm;
    return resumeWatermark();
  }

  /** Whether a watermark waits for room in the output to fire the rest of its timers. */
  public boolean hasPendingWatermark() {
    return pendingWatermark != Long.MIN_VALUE;
  }

  /**
   * Goes on applying the pending watermark: fires its due timers one at a time, stopping after a
   * firing whose output found no room ({@link #refuseEveryOtherOffer()}), else calls {@code
   * onWatermark}. Returns the watermark forwarded, or {@code Long.MIN_VALUE} while it is still pending.
   */
  public long resumeWatermark() {
    if (!hasPendingWatermark()) {
      throw new IllegalStateException("no watermark is pending");
    }
    long wm = pendingWatermark;
    Timer timer;
    while ((timer = timers.pollDue(wm)) != null) {
      output.refused = false;
      operator.onTimer(timer, output);
      if (output.refused) {
        return Long.MIN_VALUE; // the task waits for credit before it fires the next timer
      }
    }
    timers.advanceWatermark(wm);
    pendingWatermark = Long.MIN_VALUE;
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
      while (hasPendingWatermark()) {
        resumeWatermark();
      }
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

  /** Every side output's records by name, in the order the names were first used. */
  public Map<String, List<Record>> sideOutputs() {
    Map<String, List<Record>> copy = new LinkedHashMap<>();
    output.sides.forEach((name, records) -> copy.put(name, List.copyOf(records)));
    return copy;
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

  public KeyedStateBackend stateBackend() {
    return backend;
  }

  public TaskTimers timers() {
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
      operator = null;
    }
    if (stateFactory instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing the harness's state backend failed", e);
      }
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
    if (hasPendingWatermark()) {
      throw new AssertionError(what + " while watermark " + pendingWatermark + " is pending: the task takes no "
          + "input until its timers fired (call resumeWatermark)");
    }
  }

  private final class CollectingOutput implements Output {
    final List<Record> main = new ArrayList<>();
    final Map<String, List<Record>> sides = new LinkedHashMap<>();
    boolean closed;
    /** An offer since the last timer found no room (only with {@link #refuseEveryOtherOffer()}). */
    boolean refused;
    private long offers;

    @Override
    public void emit(Record record) {
      checkOpen(record);
      main.add(record);
      offered();
    }

    @Override
    public void emitSide(String name, Record record) {
      checkOpen(record);
      sides.computeIfAbsent(name, n -> new ArrayList<>()).add(record);
      offered();
    }

    /** Emitting never fails (C2): a refused offer is taken, and the task stops firing timers after it. */
    private void offered() {
      if (stingy && (++offers & 1) == 0) {
        refused = true;
      }
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
