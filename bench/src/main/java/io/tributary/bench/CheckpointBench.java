package io.tributary.bench;

import io.tributary.worker.state.StateBackends;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.TaskState;
import io.tributary.connect.ForwardingSplitReader;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.master.RunFailedException;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator.CheckpointStats;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.forst.rocks.ForstMetrics;
import io.tributary.state.forst.rocks.ForstStateBackendFactory;
import io.tributary.state.forst.store.InstrumentedObjectStore;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.protocol.Failure;
import io.tributary.boot.LocalRun;
import io.tributary.protocol.AttemptId;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.pool.LocalAttempt;
import io.tributary.worker.task.ConnectorFactory;
import io.tributary.worker.task.StreamTask;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import io.tributary.cli.client.DurationOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench checkpoint}: what checkpoints cost a Nexmark window job under load, and
 * how long a job with large keyed state takes from a failure to processing again.
 *
 * <p>Throughput: the {@code count} query (bids per auction in 10 s tumbling windows) runs three
 * times over the same bounded stream of bids through {@link JobMaster}: without periodic
 * checkpoints (interval 0: only the final checkpoint every bounded run ends with), with one every
 * 10 s and with one every 1 s. It prints events per second against the first run, and the periodic
 * checkpoints' duration, barrier alignment, synchronous snapshot time and bytes uploaded. Unless
 * {@code --events} is given, the runs are sized from the rate of a warm-up run to last about
 * {@code --run-seconds} each.
 *
 * <p>Recovery: an unbounded job keyed by {@code --state-key} (default (bidder, auction, extra), so
 * that nearly every bid opens a key), with {@code --aggregates} aggregates per one-day window (the
 * windows stay open), grows its keyed state under periodic checkpoints.
 * Once a completed checkpoint describes {@code --state-size} of keyed state (or after
 * {@code --build-timeout}), the source throws once; the figure runs from that throw until the
 * restarted job's window tasks process records again: detection and teardown, the restart backoff
 * (reported apart), starting the job, and the first records, which pay for fetching state (forst
 * restores lazily, per key group on first access). The restarted job gets a fresh local file cache,
 * as a replacement machine would, unless {@code --warm-cache}.
 *
 * <p>Backpressure ({@code --parts backpressure}, not run by default): see
 * {@link BackpressureCheckpoints}.
 *
 * <p>Everything goes to a temporary directory (under {@code --work-dir} if given), deleted at the
 * end. The figures are printed against the targets; nothing is asserted.
 */
@Command(name = "checkpoint", description = {
    "Checkpoint cost and recovery: throughput of a Nexmark window job without",
    "checkpoints and with one every 10 s and every 1 s; checkpoint duration,",
    "alignment, sync phase and bytes uploaded; time from a failure to processing",
    "again for a job with large keyed state."})
final class CheckpointBench implements Callable<Integer> {
  private static final long[] INTERVALS = {0, 10_000, 1_000};
  private static final double TARGET_COST = 0.05;
  private static final double TARGET_RECOVERY_SECONDS = 5;
  /** "Processing at full rate again" means this share of the rate before the failure. */
  private static final double FULL_RATE = 0.8;
  /** Throughput runs count records from this long after the start, when the job runs at its pace. */
  private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(2);
  /** Bids of a throughput run without --events: more than it reads before it is stopped. */
  private static final long UNBOUNDED_BIDS = 1L << 40;

  @Option(names = {"-n", "--events"},
      description = "bids per throughput run (default: more than a run reads; each run is stopped after its window)")
  Long events;

  @Option(names = "--run-seconds", defaultValue = "20",
      description = "throughput measured over this long, after 2 s to settle (default ${DEFAULT-VALUE})")
  int runSeconds;

  @Option(names = "--repeat", defaultValue = "1",
      description = "throughput runs per interval, interleaved; the median counts (default ${DEFAULT-VALUE})")
  int repeat;

  @Option(names = {"-p", "--parallelism"}, defaultValue = "1",
      description = "job parallelism; alignment needs 2 or more (default ${DEFAULT-VALUE})")
  int parallelism;

  @Option(names = "--state", defaultValue = "forst",
      description = "state backend: heap or forst (default ${DEFAULT-VALUE})")
  String stateBackend;

  @Option(names = "--warmup", defaultValue = "5s", converter = DurationOption.class,
      description = "an unmeasured run without checkpoints first (default ${DEFAULT-VALUE}; 0: none)")
  Duration warmup;

  @Option(names = "--state-size", defaultValue = "1g",
      description = "keyed state before the failure, e.g. 1g or 200m (default ${DEFAULT-VALUE})")
  String stateSize;

  @Option(names = "--build-timeout", defaultValue = "45s", converter = DurationOption.class,
      description = "fail anyway after this long if the state is still smaller (default ${DEFAULT-VALUE})")
  Duration buildTimeout;

  @Option(names = "--state-key", split = ",", defaultValue = "bidder,auction,extra",
      description = "key fields of the recovery job (default ${DEFAULT-VALUE})")
  List<String> stateKey;

  @Option(names = "--aggregates", defaultValue = "16",
      description = "aggregates per window of the recovery job (default ${DEFAULT-VALUE})")
  int aggregates;

  @Option(names = "--state-interval", defaultValue = "5s", converter = DurationOption.class,
      description = "checkpoint interval of the recovery job (default ${DEFAULT-VALUE})")
  Duration stateInterval;

  @Option(names = "--backoff", defaultValue = "100ms", converter = DurationOption.class,
      description = "restart backoff of the recovery job (default ${DEFAULT-VALUE})")
  Duration backoff;

  @Option(names = "--observe", defaultValue = "20s", converter = DurationOption.class,
      description = "how long to watch the restarted job for its full rate (default ${DEFAULT-VALUE})")
  Duration observe;

  @Option(names = "--checkpoint-timeout", defaultValue = "10m", converter = DurationOption.class,
      description = "a checkpoint not complete after this is aborted; 0: never (default ${DEFAULT-VALUE}, as `run`)")
  Duration checkpointTimeout;

  @Option(names = "--warm-cache",
      description = "restore on this process's local file cache (local recovery) instead of a fresh one")
  boolean warmCache;

  @Option(names = "--parts", split = ",", defaultValue = "throughput,recovery",
      description = "what to run: throughput, recovery, backpressure (aligned vs unaligned checkpoints under "
          + "backpressure, --run-seconds each) (default ${DEFAULT-VALUE})")
  List<String> parts;

  @Option(names = "--work-dir", description = "where checkpoints and local files go (default: a temp dir)")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    for (String p : parts) {
      if (!p.equals("throughput") && !p.equals("recovery") && !p.equals("backpressure")) {
        throw new IllegalArgumentException("--parts: '" + p + "' is none of throughput, recovery, backpressure");
      }
    }
    if (!stateBackend.equals(HeapStateBackendFactory.NAME) && !stateBackend.equals(ForstStateBackendFactory.NAME)) {
      throw new IllegalArgumentException("--state must be heap or forst, not '" + stateBackend + "'");
    }
    Path dir = workDir == null ? Files.createTempDirectory("tributary-bench-checkpoint")
        : Files.createTempDirectory(Files.createDirectories(workDir), "bench-checkpoint-");
    PrintStream out = System.out;
    Thread cleanup = new Thread(() -> deleteTree(dir), "bench-checkpoint-cleanup"); // on Ctrl-C
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      if (parts.contains("throughput")) {
        throughput(dir, out);
      }
      if (parts.contains("recovery")) {
        recovery(dir, out);
      }
      if (parts.contains("backpressure")) {
        BackpressureCheckpoints.run(dir.resolve("backpressure"), parallelism, runSeconds, out);
      }
    } finally {
      deleteTree(dir);
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
    return 0;
  }

  // ---- throughput ----

  /**
   * One throughput run: records into the window tasks over the measured seconds, and the figures of
   * its periodic checkpoints.
   */
  private record Run(long intervalMillis, long events, double seconds, double cpuSeconds,
      List<CheckpointStats> checkpoints, List<Long> otherBytes, int aborted, int triggeredInWindow) {
    double eventsPerSecond() {
      return events / seconds;
    }

    /** Process CPU time per record, in microseconds: a figure other load on the machine disturbs less. */
    double cpuMicrosPerEvent() {
      return events == 0 ? 0 : cpuSeconds * 1e6 / events;
    }

    String label() {
      return intervalMillis == 0 ? "none" : every(intervalMillis);
    }
  }

  private void throughput(Path dir, PrintStream out) throws InterruptedException {
    if (!warmup.isZero()) {
      System.err.printf("warming up: %d s without checkpoints%n", warmup.toSeconds());
      countRun(dir, 0, warmup.toNanos());
    }
    out.printf("checkpoint bench: nexmark count (bids per auction, 10 s tumbling), %s, parallelism %d, %s state,"
        + " %d cores%n", events == null ? "events/s over " + runSeconds + " s after 2 s to settle"
            : String.format("%,d bids per run", events),
        parallelism, stateBackend, Runtime.getRuntime().availableProcessors());
    List<List<Run>> repeats = new ArrayList<>();
    for (int i = 0; i < INTERVALS.length; i++) {
      repeats.add(new ArrayList<>());
    }
    for (int rep = 0; rep < repeat; rep++) {
      for (int i = 0; i < INTERVALS.length; i++) {
        long interval = INTERVALS[i];
        System.err.printf("running with checkpoints: %s%n", interval == 0 ? "none" : "every " + every(interval));
        repeats.get(i).add(countRun(dir, interval, TimeUnit.SECONDS.toNanos(runSeconds)));
      }
    }
    List<Run> runs = repeats.stream().map(CheckpointBench::median).toList();
    if (repeat > 1) {
      out.printf("(median of %d interleaved runs each; the checkpoint figures pool all runs)%n", repeat);
    }
    printTable(runs, out);
    printThroughputFigures(runs, out);
  }

  /** The run of median rate, with the checkpoints of all runs. */
  private static Run median(List<Run> runs) {
    List<Run> sorted = runs.stream().sorted(Comparator.comparingDouble(Run::eventsPerSecond)).toList();
    Run m = sorted.get(sorted.size() / 2);
    List<CheckpointStats> stats = new ArrayList<>();
    List<Long> other = new ArrayList<>();
    int aborted = 0;
    for (Run r : runs) {
      stats.addAll(r.checkpoints());
      other.addAll(r.otherBytes());
      aborted += r.aborted();
    }
    return new Run(m.intervalMillis(), m.events(), m.seconds(), m.cpuSeconds(), stats, other, aborted,
        m.triggeredInWindow());
  }

  /**
   * Runs the count query with checkpoints every {@code intervalMillis} (0: none) and counts the
   * records into its window tasks from {@link #SETTLE_NANOS} after the start for {@code windowNanos},
   * then stops it; a bounded run that ends first is measured from its start to its final checkpoint.
   */
  private Run countRun(Path root, long intervalMillis, long windowNanos) throws InterruptedException {
    long bids = events != null ? events : UNBOUNDED_BIDS;
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(NexmarkQueries.spec("count", bids, parallelism, stateBackend)));
    Path dir = root.resolve("count-" + intervalMillis);
    try (Storage storage = new Storage(dir)) {
      Collector collector = new Collector(storage.objects, stateBackend.equals(HeapStateBackendFactory.NAME));
      JobMaster.Settings settings = new JobMaster.Settings(plan, intervalMillis, 2, checkpointTimeout.toMillis(),
          RestorePolicy.NONE, RestartPolicy.NEVER);
      try (LocalRun runner = LocalRun.create(settings, InProcessWorkerPool.Options.of(storage.factories()),
          storage.checkpointStore(plan.jobName()), collector)) {
        long[] counted = measure(runner, collector, intervalMillis, windowNanos);
        synchronized (collector) {
          int inWindow = (int) collector.triggeredAt.stream().filter(t -> t >= counted[1] && t <= counted[2]).count();
          return new Run(intervalMillis, counted[0], (counted[2] - counted[1]) / 1e9, counted[3] / 1e9,
              List.copyOf(collector.stats), List.copyOf(collector.otherBytes), collector.aborted, inWindow);
        }
      }
    } finally {
      deleteTree(dir);
    }
  }

  /**
   * Runs the job on another thread; returns {records into the window tasks, start, end, process CPU
   * nanos} of the window. After the window, waits for a checkpoint in flight (so that its figures count) before
   * stopping the job.
   */
  private static long[] measure(LocalRun runner, Collector collector, long intervalMillis, long windowNanos)
      throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread run = new Thread(() -> {
      try {
        runner.run();
      } catch (CancellationException e) {
        // stopped after the window
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "bench-run");
    long start = System.nanoTime();
    run.start();
    LocalAttempt job = null;
    long t0 = start;
    long c0 = 0;
    long cpu0 = cpuNanos();
    boolean counting = false;
    while (true) {
      run.join(20);
      long now = System.nanoTime();
      LocalAttempt j = runner.attempt();
      job = j != null ? j : job;
      if (!run.isAlive()) {
        if (failure.get() != null) {
          throw new IllegalStateException("a throughput run failed: " + failure.get().getMessage(), failure.get());
        }
        long end = collector.finishedAt() != 0 ? collector.finishedAt() : now;
        return new long[] {(job == null ? 0 : windowRecords(job)) - c0, t0, end, cpuNanos() - cpu0};
      }
      if (!counting && job != null && now - start >= SETTLE_NANOS) {
        counting = true;
        t0 = now;
        c0 = windowRecords(job);
        cpu0 = cpuNanos();
      } else if (counting && now - t0 >= windowNanos) {
        long c1 = windowRecords(job);
        long cpu = cpuNanos() - cpu0;
        if (collector.inFlight(now, intervalMillis)) {
          long deadline = now + TimeUnit.MINUTES.toNanos(1);
          while (collector.lastEndedAt() < now && System.nanoTime() < deadline && run.isAlive()) {
            Thread.sleep(20);
          }
        }
        runner.master().cancel();
        run.join();
        return new long[] {c1 - c0, t0, now, cpu};
      }
    }
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Records that entered the job's non-source tasks (its window tasks here); published every 1,024. */
  private static long windowRecords(LocalAttempt job) {
    long n = 0;
    for (StreamTask t : job.tasks()) {
      if (!t.isSource()) {
        n += t.counters().recordsIn();
      }
    }
    return n;
  }

  /** Collects the figures of the periodic checkpoints of a run (not the final one of a bounded job). */
  private static final class Collector implements JobMaster.Events {
    private final InstrumentedObjectStore objects;
    private final boolean keyedInObjects;
    final List<CheckpointStats> stats = new ArrayList<>();
    final List<Long> otherBytes = new ArrayList<>();
    /** When each periodic checkpoint was triggered ({@link System#nanoTime}). */
    final List<Long> triggeredAt = new ArrayList<>();
    int aborted;
    private long startedAt;
    private long finishedAt;
    /** When the last checkpoint completed or was aborted; 0 if none did. */
    private long lastEndedAt;
    private long lastUploaded;

    /** @param keyedInObjects heap state: keyed snapshots go to {@code objects} too */
    Collector(InstrumentedObjectStore objects, boolean keyedInObjects) {
      this.objects = objects;
      this.keyedInObjects = keyedInObjects;
    }

    /** When the final checkpoint committed the output of a bounded run; 0 if none did. */
    synchronized long finishedAt() {
      return finishedAt;
    }

    /**
     * Whether a periodic checkpoint is in flight at {@code now}: the coordinator ticks every
     * {@code intervalMillis} from the start and triggers when none is in flight.
     */
    synchronized boolean inFlight(long now, long intervalMillis) {
      if (intervalMillis == 0 || startedAt == 0) {
        return false;
      }
      long interval = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
      long since = Math.max(lastEndedAt, startedAt) - startedAt;
      long nextTick = startedAt + (since / interval + 1) * interval;
      return nextTick <= now;
    }

    synchronized long lastEndedAt() {
      return lastEndedAt;
    }

    @Override
    public synchronized void started(AttemptId attempt, ExecutionPlan plan) {
      startedAt = System.nanoTime();
    }

    @Override
    public synchronized void completed(CheckpointMetadata md, CheckpointStats st) {
      long now = System.nanoTime();
      long uploaded = objects.metrics().bytesUploaded();
      long delta = uploaded - lastUploaded;
      lastUploaded = uploaded;
      lastEndedAt = now;
      if (md.tasks().stream().allMatch(TaskState::finished)) {
        finishedAt = now;
        return;
      }
      System.err.printf("  checkpoint %d: %,d ms, sync %s ms, alignment %s ms, uploaded %s%n", st.id(),
          st.durationMillis(), millis(st.maxSyncNanos(), 0), millis(st.maxAlignmentNanos(), 1),
          bytes(st.uploadedBytes()));
      stats.add(st);
      otherBytes.add(delta - (keyedInObjects ? st.uploadedBytes() : 0));
      triggeredAt.add(now - TimeUnit.MILLISECONDS.toNanos(st.durationMillis()));
    }

    @Override
    public synchronized void aborted(long checkpointId, String reason) {
      aborted++;
      lastEndedAt = System.nanoTime();
      System.err.println("checkpoint " + checkpointId + " aborted: " + reason);
    }
  }

  private static void printTable(List<Run> runs, PrintStream out) {
    double base = runs.get(0).eventsPerSecond();
    out.printf("%-6s %12s %8s %6s %10s %5s %17s %14s %17s %11s%n", "every", "events/s", "vs none", "secs",
        "CPU us/ev", "chks", "duration p50/p99", "align p50/p99", "sync p50/p99", "upload/chk");
    for (Run r : runs) {
      List<CheckpointStats> c = r.checkpoints();
      boolean any = !c.isEmpty();
      out.printf("%-6s %,12.0f %7.1f%% %6.1f %10.2f %5d %17s %14s %17s %11s%n", r.label(), r.eventsPerSecond(),
          100 * r.eventsPerSecond() / base, r.seconds(), r.cpuMicrosPerEvent(), c.size(),
          any ? pair(c, s -> s.durationMillis() * 1_000_000, 0) : "-",
          any ? pair(c, CheckpointStats::maxAlignmentNanos, 2) : "-",
          any ? pair(c, CheckpointStats::maxSyncNanos, 1) : "-",
          any ? bytes(mean(c, CheckpointStats::uploadedBytes)) : "-");
    }
  }

  private void printThroughputFigures(List<Run> runs, PrintStream out) {
    double base = runs.get(0).eventsPerSecond();
    for (Run r : runs.subList(1, runs.size())) {
      double ratio = r.eventsPerSecond() / base;
      int n = r.triggeredInWindow();
      String lost = n == 0 ? "" : String.format(", about %,.0f ms of processing lost per checkpoint (%d in %.0f s)",
          1000 * r.seconds() * (1 - ratio) / n, n, r.seconds());
      double cpu = r.cpuMicrosPerEvent() / runs.get(0).cpuMicrosPerEvent() - 1;
      out.printf("throughput, checkpoints every %s: %,.0f events/s = %.1f%% of %,.0f without, cost %.1f%%%s;"
          + " CPU per event %+.1f%%%s%n", r.label(), r.eventsPerSecond(), 100 * ratio, base, 100 * (1 - ratio), lost,
          100 * cpu,
          r.intervalMillis() == 10_000 ? target(1 - ratio < TARGET_COST, "< 5%") : "");
    }
    out.println("checkpoint duration: " + perRun(runs,
        r -> pair(r.checkpoints(), s -> s.durationMillis() * 1_000_000, 0) + " ms"));
    out.println("alignment time (slowest task): " + perRun(runs, r -> pair(r.checkpoints(),
        CheckpointStats::maxAlignmentNanos, 2) + " ms") + (parallelism == 1
        ? "  [parallelism 1: each window task has one input channel, nothing to align; try -p 2]" : ""));
    out.println("bytes uploaded per checkpoint (mean): " + perRun(runs, r -> bytes(mean(r.checkpoints(),
        CheckpointStats::uploadedBytes)) + " keyed state + " + bytes(meanOf(r.otherBytes())) + " timers and metadata"));
    out.println("synchronous snapshot on the task thread (slowest task): " + perRun(runs,
        r -> pair(r.checkpoints(), CheckpointStats::maxSyncNanos, 1) + " ms, max "
            + millis(r.checkpoints().stream().mapToLong(CheckpointStats::maxSyncNanos).max().orElse(0), 1) + " ms"));
    int aborted = runs.stream().mapToInt(Run::aborted).sum();
    if (aborted > 0) {
      out.println("aborted checkpoints: " + aborted + " (see stderr)");
    }
  }

  /** "every 10 s p50/p99 (n); every 1 s ..." over the runs with checkpoints. */
  private static String perRun(List<Run> runs, java.util.function.Function<Run, String> figure) {
    List<String> parts = new ArrayList<>();
    for (Run r : runs) {
      if (r.intervalMillis() > 0) {
        parts.add("every " + r.label() + ": "
            + (r.checkpoints().isEmpty() ? "no checkpoint completed" : figure.apply(r)
                + " (n=" + r.checkpoints().size() + ")"));
      }
    }
    return String.join("; ", parts);
  }

  // ---- recovery ----

  private void recovery(Path root, PrintStream out) throws Exception {
    long targetBytes = StateBackends.parseBytes(stateSize);
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(stateSpec()));
    Path dir = root.resolve("recovery");
    System.err.printf("recovery: building %s of keyed state (checkpoints every %s), then failing once%n",
        bytes(targetBytes), every(stateInterval.toMillis()));
    try (Storage storage = new Storage(dir)) {
      FailOnce fail = new FailOnce();
      Recovery rec = new Recovery(storage, fail, targetBytes, buildTimeout.toNanos(), warmCache);
      JobMaster.Settings settings = new JobMaster.Settings(plan, stateInterval.toMillis(), 2,
          checkpointTimeout.toMillis(), RestorePolicy.NONE, new RestartPolicy(1, backoff, backoff));
      try (LocalRun runner = LocalRun.create(settings,
          InProcessWorkerPool.Options.of(storage.factories()).withConnectors(fail),
          storage.checkpointStore(plan.jobName()), rec)) {
        rec.run = runner;
        Thread watcher = new Thread(() -> rec.watch(runner, observe.toNanos()), "bench-recovery-watcher");
        watcher.setDaemon(true);
        watcher.start();
        try {
          runner.run();
        } catch (CancellationException e) {
          // the watcher stops the unbounded job once it has seen enough
        } catch (RunFailedException e) {
          out.println("recovery: the job did not recover: " + e.getMessage());
          return;
        } finally {
          watcher.interrupt();
          watcher.join();
        }
      }
      printRecovery(rec, storage, out);
    } finally {
      deleteTree(dir);
    }
  }

  /** Keyed by {@link #stateKey}, one-day windows (open for the whole run), {@link #aggregates} per window. */
  String stateSpec() {
    return NexmarkQueries.stateSpec("bench-checkpoint-state", parallelism, stateBackend, stateKey, aggregates);
  }

  private void printRecovery(Recovery rec, Storage storage, PrintStream out) {
    out.printf("recovery job: keyed by (%s), %d aggregates per one-day window, parallelism %d, %s state,"
        + " checkpoints every %s, restart backoff %d ms, %s file cache%n", String.join(", ", stateKey), aggregates,
        parallelism, stateBackend, every(stateInterval.toMillis()), backoff.toMillis(),
        warmCache ? "warm (local recovery)" : "fresh");
    CheckpointStats last = rec.restoredFrom;
    if (last == null || rec.failedAt == 0) {
      out.println("recovery: no failure injected: no checkpoint completed within --build-timeout + 2 min");
      return;
    }
    out.printf("state before the failure: %s keyed state in checkpoint %d after %.1f s (%,d records into the window"
        + " tasks)%s; its checkpoint took %,d ms, sync %s ms, uploaded %s%n",
        bytes(last.stateBytes()), last.id(), (rec.failedAt - rec.startedAt) / 1e9, rec.recordsBeforeFailure,
        last.stateBytes() < rec.targetBytes ? " [short of " + stateSize + ": --build-timeout reached]" : "",
        last.durationMillis(), millis(last.maxSyncNanos(), 0), bytes(last.uploadedBytes()));
    out.printf("build phase: %d checkpoints, sync snapshot max %s ms, duration max %,d ms%n", rec.buildCheckpoints,
        millis(rec.buildMaxSyncNanos, 0), rec.buildMaxDurationMillis);
    int half = rec.buildUploaded.size() / 2; // the second half: the larger state
    long up = rec.buildUploaded.subList(half, rec.buildUploaded.size()).stream().mapToLong(Long::longValue).sum();
    long written = rec.buildWritten.subList(half, rec.buildWritten.size()).stream().mapToLong(Long::longValue).sum();
    if (written > 0) {
      out.printf("build phase, last %d checkpoints: uploaded %s for %s written into the state (%.2fx; target <= 2x)%n",
          rec.buildUploaded.size() - half, bytes(up), bytes(written), (double) up / written);
    }
    if (rec.firstRecordsAt == 0) {
      out.printf("failure to processing again: not within %s s of the restart (target < 5 s: missed)%n",
          observe.toSeconds());
      return;
    }
    double total = (rec.firstRecordsAt - rec.failedAt) / 1e9;
    out.printf("failure to processing again: %.2f s (%s); of which detect + tear down %.2f s (tasks stopped %s),"
        + " backoff %.2f s, start %.2f s, first records %.2f s%n", total, recoveryVerdict(total, last.stateBytes()),
        (rec.restartingAt - rec.failedAt) / 1e9,
        rec.oldStoppedAt == 0 ? "?" : String.format("%.2f s", (rec.oldStoppedAt - rec.failedAt) / 1e9),
        backoff.toMillis() / 1e3, (rec.restartedAt - rec.restartingAt) / 1e9 - backoff.toMillis() / 1e3,
        (rec.firstRecordsAt - rec.restartedAt) / 1e9);
    if (rec.fullRateAt != 0) {
      out.printf("failure to %.0f%% of the pre-failure rate (%,.0f records/s into the window tasks): %.2f s%n",
          100 * FULL_RATE, rec.rateBefore, (rec.fullRateAt - rec.failedAt) / 1e9);
    } else {
      out.printf("failure to %.0f%% of the pre-failure rate (%,.0f records/s): not within %d s%n", 100 * FULL_RATE,
          rec.rateBefore, observe.toSeconds());
    }
    ForstMetrics at = rec.forstAtFirstRecords;
    storage.currentForst().forstMetrics().ifPresent(end -> out.printf("restore (forst%s): at first records %s;"
        + " by the end %,d key groups opened, %s fetched, shard opens %.2f s in total%n",
        warmCache ? ", warm cache" : ", fresh cache",
        at == null ? "nothing opened" : at.shardsOpened() + " key groups opened, " + bytes(at.bytesDownloaded())
            + " fetched", end.shardsOpened(), bytes(end.bytesDownloaded()), end.shardOpenNanos() / 1e9));
  }

  /** Against the target for 1 GiB, saying so when the state was smaller. */
  static String recoveryVerdict(double seconds, long stateBytes) {
    boolean met = seconds < TARGET_RECOVERY_SECONDS;
    String target = String.format("target < %.0f s for 1 GiB: ", TARGET_RECOVERY_SECONDS);
    if (stateBytes >= 0.9 * (1L << 30)) {
      return target + (met ? "met" : "missed");
    }
    return target + (met ? "not shown, met with " + bytes(stateBytes) + " only"
        : "missed already with " + bytes(stateBytes));
  }

  /**
   * The recovery run's events and timeline: arms the failure once the state is big enough, swaps
   * in a fresh forst factory for the restart, and (on its own thread) watches the window tasks'
   * record counts for the first records after the restart and the return to full rate.
   */
  private static final class Recovery implements JobMaster.Events {
    private final Storage storage;
    private final FailOnce fail;
    final long targetBytes;
    private final long buildTimeoutNanos;
    private final boolean warmCache;
    final long startedAt = System.nanoTime();
    volatile CheckpointStats restoredFrom;
    volatile long failedAt;
    /** When every task of the failed job had stopped (sampled). */
    volatile long oldStoppedAt;
    volatile long restartingAt;
    volatile long restartedAt;
    volatile long firstRecordsAt;
    volatile long fullRateAt;
    volatile long recordsBeforeFailure;
    volatile double rateBefore;
    volatile ForstMetrics forstAtFirstRecords;
    /** Beyond the build timeout, how long to wait for a completed checkpoint before giving up. */
    private static final long GIVE_UP_NANOS = TimeUnit.MINUTES.toNanos(2);
    volatile int buildCheckpoints;
    /** The run whose attempts it follows; set before the run starts. */
    volatile LocalRun run;
    volatile long buildMaxSyncNanos;
    volatile long buildMaxDurationMillis;
    /** Per build checkpoint: bytes uploaded, and bytes written into the state since the previous one. */
    final List<Long> buildUploaded = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<Long> buildWritten = new java.util.concurrent.CopyOnWriteArrayList<>();
    private long writtenBefore;

    Recovery(Storage storage, FailOnce fail, long targetBytes, long buildTimeoutNanos, boolean warmCache) {
      this.storage = storage;
      this.fail = fail;
      this.targetBytes = targetBytes;
      this.buildTimeoutNanos = buildTimeoutNanos;
      this.warmCache = warmCache;
    }

    @Override
    public void completed(CheckpointMetadata md, CheckpointStats st) {
      if (fail.armed() || failedAt != 0 || restartingAt != 0) {
        return;
      }
      buildCheckpoints++;
      buildMaxSyncNanos = Math.max(buildMaxSyncNanos, st.maxSyncNanos());
      buildMaxDurationMillis = Math.max(buildMaxDurationMillis, st.durationMillis());
      double elapsed = (System.nanoTime() - startedAt) / 1e9;
      LocalAttempt job = run.attempt();
      long written = storage.currentForst().forstMetrics().map(m -> m.bytesWritten()).orElse(0L);
      System.err.printf("[%5.1fs] checkpoint %d: %s keyed state, uploaded %s (%s written since the previous one), "
          + "%,d ms, sync %s ms; %,d records in%n", elapsed, st.id(), bytes(st.stateBytes()), bytes(st.uploadedBytes()),
          bytes(written - writtenBefore), st.durationMillis(), millis(st.maxSyncNanos(), 0),
          job == null ? 0 : windowRecords(job));
      buildUploaded.add(st.uploadedBytes());
      buildWritten.add(written - writtenBefore);
      writtenBefore = written;
      if (st.stateBytes() >= targetBytes || System.nanoTime() - startedAt > buildTimeoutNanos) {
        restoredFrom = st;
        fail.arm();
      }
    }

    @Override
    public void aborted(long checkpointId, String reason) {
      System.err.println("checkpoint " + checkpointId + " aborted: " + reason);
    }

    @Override
    public void restarting(Failure failure, int restart, int maxRestarts, Duration backoff) {
      restartingAt = System.nanoTime();
      failedAt = fail.failedAt();
      System.err.printf("restarting after %.2f s: %s%n", (restartingAt - failedAt) / 1e9, failure.describe());
      if (!warmCache) {
        storage.freshForst();
      }
    }

    @Override
    public void started(AttemptId attempt, ExecutionPlan plan) {
      if (restartingAt != 0) {
        restartedAt = System.nanoTime();
      }
    }

    /** Samples the window tasks' records in until the restarted job runs at full rate, then cancels. */
    void watch(LocalRun runner, long observeNanos) {
      List<long[]> samples = new ArrayList<>(); // {nanos, records into window tasks} of the current job
      LocalAttempt sampled = null;
      try {
        while (true) {
          Thread.sleep(5);
          long now = System.nanoTime();
          if (sampled != null && oldStoppedAt == 0 && fail.failedAt() != 0 && sampled.isDone()) {
            oldStoppedAt = now;
          }
          LocalAttempt job = runner.attempt();
          if (job == null) {
            continue;
          }
          if (job != sampled) {
            if (sampled != null && rateBefore == 0) {
              beforeFailure(samples);
            }
            sampled = job;
            samples.clear();
          }
          long records = windowRecords(job);
          samples.add(new long[] {now, records});
          if (restartedAt == 0) {
            if (fail.failedAt() == 0 && now - startedAt > buildTimeoutNanos + GIVE_UP_NANOS) {
              break; // no checkpoint completed to fail after: give up
            }
            if (samples.size() > 2_000) {
              samples.subList(0, 1_000).clear();
            }
            continue;
          }
          if (firstRecordsAt == 0 && records > 0) {
            firstRecordsAt = now;
            forstAtFirstRecords = storage.currentForst().forstMetrics().orElse(null);
          }
          if (firstRecordsAt != 0 && fullRate(samples)) {
            break;
          }
          if (now - restartedAt > observeNanos) {
            break;
          }
        }
        runner.master().cancel();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** The window tasks' rate over the last 2 s before the failure. */
    private void beforeFailure(List<long[]> samples) {
      long until = failedAt != 0 ? failedAt : Long.MAX_VALUE;
      long[] last = null;
      long[] first = null;
      for (long[] s : samples) {
        if (s[0] <= until) {
          last = s;
        }
      }
      if (last == null) {
        return;
      }
      for (long[] s : samples) {
        if (s[0] >= last[0] - 2_000_000_000L) {
          first = s;
          break;
        }
      }
      recordsBeforeFailure = last[1];
      if (first != null && last[0] > first[0]) {
        rateBefore = (last[1] - first[1]) / ((last[0] - first[0]) / 1e9);
      }
    }

    /** Whether the last half second ran at {@link #FULL_RATE} of the rate before; notes when it began. */
    private boolean fullRate(List<long[]> samples) {
      long[] last = samples.get(samples.size() - 1);
      for (int i = samples.size() - 1; i >= 0; i--) {
        long[] s = samples.get(i);
        if (last[0] - s[0] >= 500_000_000L) {
          double rate = (last[1] - s[1]) / ((last[0] - s[0]) / 1e9);
          if (rateBefore > 0 && rate >= FULL_RATE * rateBefore) {
            fullRateAt = s[0];
            return true;
          }
          return false;
        }
      }
      return false;
    }

  }

  /** The standard connectors, with sources that throw once when armed: the injected failure. */
  private static final class FailOnce implements ConnectorFactory {
    private final ConnectorFactory sources = ConnectorFactory.standard().withSourceReaders(this::reader);
    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile long failedAt;

    void arm() {
      armed.set(true);
    }

    boolean armed() {
      return armed.get();
    }

    /** When a reader threw, in {@link System#nanoTime} terms; 0 if none did yet. */
    long failedAt() {
      return failedAt;
    }

    @Override
    public SourceConnector source(SourcePlan plan) {
      return sources.source(plan);
    }

    @Override
    public SinkConnector sink(SinkPlan plan) {
      return sources.sink(plan);
    }

    private SplitReader reader(SplitReader reader) {
      return new ForwardingSplitReader(reader) {
        @Override
        public int read(SplitOutput out, int max) {
          if (armed.compareAndSet(true, false)) {
            failedAt = System.nanoTime();
            throw new IllegalStateException("failure injected by bench checkpoint");
          }
          return reader.read(out, max);
        }
      };
    }
  }

  // ---- storage of one run ----

  /**
   * The object store, metadata store and state backends of one run, under one directory: heap
   * snapshots, timers and metadata go to {@link #objects} (counted), forst files to the same
   * directory through the forst factory's own store. {@link #freshForst} starts a new forst factory
   * with an empty local file cache, as a replacement machine would have; the old one stays open
   * (and idle) until the run's storage is closed.
   */
  private static final class Storage implements AutoCloseable {
    private final Path dir;
    final InstrumentedObjectStore objects;
    private final EmbeddedMetadataStore metadata;
    private final HeapStateBackendFactory heap;
    private final List<StateBackends> forsts = new ArrayList<>();
    private final Swappable forst = new Swappable();

    Storage(Path dir) {
      this.dir = dir;
      try {
        Files.createDirectories(dir.resolve("objects"));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("cannot create " + dir, e);
      }
      this.objects = new InstrumentedObjectStore(ObjectStores.open(dir.resolve("objects").toString()));
      this.metadata = new EmbeddedMetadataStore(dir.resolve("metadata"));
      this.heap = new HeapStateBackendFactory(objects);
      freshForst();
    }

    synchronized void freshForst() {
      StateBackends b = new StateBackends(dir.resolve("objects").toString(), dir.resolve("local-" + forsts.size()));
      forsts.add(b);
      forst.delegate = b.factories().get(ForstStateBackendFactory.NAME);
    }

    synchronized StateBackends currentForst() {
      return forsts.get(forsts.size() - 1);
    }

    Map<String, StateBackendFactory> factories() {
      return Map.of(heap.name(), heap, forst.name(), forst);
    }

    CheckpointStore checkpointStore(String job) {
      return new CheckpointStore(job, objects, metadata);
    }

    @Override
    public synchronized void close() {
      for (int i = forsts.size() - 1; i >= 0; i--) {
        forsts.get(i).close();
      }
      heap.close();
      metadata.close();
      objects.close();
    }
  }

  /** The forst factory of the current "machine". */
  private static final class Swappable extends io.tributary.state.ForwardingStateBackendFactory {
    volatile StateBackendFactory delegate;

    @Override
    protected StateBackendFactory delegate() {
      return delegate;
    }

    @Override
    public String name() {
      return ForstStateBackendFactory.NAME;
    }
  }

  // ---- figures ----

  /** "p50 / p99" of a nanosecond figure, in ms. */
  private static String pair(List<CheckpointStats> stats, ToLongFunction<CheckpointStats> nanos, int decimals) {
    long[] v = stats.stream().mapToLong(nanos).sorted().toArray();
    return millis(percentile(v, 0.50), decimals) + " / " + millis(percentile(v, 0.99), decimals);
  }

  /** Nearest rank. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  private static String millis(long nanos, int decimals) {
    return String.format("%,." + decimals + "f", nanos / 1e6);
  }

  private static long mean(List<CheckpointStats> stats, ToLongFunction<CheckpointStats> f) {
    return Math.round(stats.stream().mapToLong(f).average().orElse(0));
  }

  private static long meanOf(List<Long> values) {
    return Math.round(values.stream().mapToLong(Long::longValue).average().orElse(0));
  }

  static String bytes(long b) {
    if (b >= 1L << 30) {
      return String.format("%.2f GiB", b / (double) (1L << 30));
    }
    if (b >= 1L << 20) {
      return String.format("%.1f MiB", b / (double) (1L << 20));
    }
    if (b >= 1L << 10) {
      return String.format("%.1f KiB", b / (double) (1L << 10));
    }
    return b + " B";
  }

  private static String every(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }

  private static String target(boolean met, String what) {
    return " (target " + what + ": " + (met ? "met" : "missed") + ")";
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("tributary: could not delete all of " + dir + ": " + e.getMessage());
    }
  }
}
