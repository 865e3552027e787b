package io.tributary.bench;

import io.tributary.boot.LocalRun;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.connect.SinkConnector;
import io.tributary.connectors.SlowSink;
import io.tributary.connect.SourceConnector;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator.CheckpointStats;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.state.store.ObjectStore;
import io.tributary.stream.Record;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

/**
 * {@code tributary bench checkpoint --parts backpressure}: how long checkpoints take under heavy
 * backpressure, aligned and unaligned. A keyed pass-through (datagen, unbounded, into a file sink
 * whose writes take {@value #SINK_MICROS} µs a record) runs for the given time with a checkpoint
 * every second, once with aligned and once with unaligned checkpoints; it prints the checkpoints'
 * duration (median and largest), the longest barrier alignment, and what the unaligned ones stored
 * of records in flight. Nothing is asserted.
 */
final class BackpressureCheckpoints {
  private static final long SINK_MICROS = 50;
  private static final long INTERVAL_MILLIS = 1_000;

  private BackpressureCheckpoints() {}

  /** One run's completed periodic checkpoints. */
  private record Run(String label, List<CheckpointStats> stats, List<Long> inFlightRecords, List<Long> inFlightBytes) {}

  static void run(Path dir, int parallelism, long seconds, PrintStream out) throws InterruptedException {
    int p = Math.max(2, parallelism);
    out.printf("%ncheckpoints under backpressure: datagen -> key by k -> file sink of %d µs a record, parallelism %d,"
        + " a checkpoint every %d ms, %d s per run%n", SINK_MICROS, p, INTERVAL_MILLIS, seconds);
    List<Run> runs = new ArrayList<>();
    for (boolean unaligned : new boolean[] {false, true}) {
      System.err.printf("running under backpressure with %s checkpoints%n", unaligned ? "unaligned" : "aligned");
      runs.add(once(dir.resolve(unaligned ? "unaligned" : "aligned"), p, unaligned, seconds));
    }
    out.printf("%-10s %12s %12s %12s %14s %14s %8s%n", "barriers", "completed", "median ms", "max ms",
        "max align ms", "in flight", "MiB");
    for (Run r : runs) {
      List<Long> durations = r.stats().stream().map(CheckpointStats::durationMillis).sorted().toList();
      long maxAlign = r.stats().stream().mapToLong(CheckpointStats::maxAlignmentNanos).max().orElse(0);
      long records = r.inFlightRecords().stream().mapToLong(Long::longValue).max().orElse(0);
      long bytes = r.inFlightBytes().stream().mapToLong(Long::longValue).max().orElse(0);
      out.printf("%-10s %12d %12s %12s %14.1f %14s %8.2f%n", r.label(), durations.size(),
          durations.isEmpty() ? "-" : String.valueOf(durations.get(durations.size() / 2)),
          durations.isEmpty() ? "-" : String.valueOf(durations.get(durations.size() - 1)), maxAlign / 1e6,
          String.format("%,d", records), bytes / (1024.0 * 1024));
    }
    out.println("(in flight: the most records, and MiB, one unaligned checkpoint stored)");
  }

  private static Run once(Path dir, int parallelism, boolean unaligned, long seconds) throws InterruptedException {
    try {
      Files.createDirectories(dir.resolve("objects"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    String spec = """
        name: backpressure
        parallelism: %d
        sources:
          numbers: {type: datagen}
        operators:
          - {id: numbered, input: numbers, select: {k: "id %% 97", seq: "id / 97"}}
          - {id: by-key, input: numbered, keyBy: [k]}
        sinks:
          out: {input: by-key, type: file, path: "%s"}
        state: {backend: heap}
        """.formatted(parallelism, dir.resolve("out"));
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(spec));
    ObjectStore objects = ObjectStores.open(dir.resolve("objects").toString());
    EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(dir.resolve("metadata"));
    HeapStateBackendFactory heap = new HeapStateBackendFactory(objects);
    Events events = new Events();
    JobMaster.Settings settings = new JobMaster.Settings(plan, INTERVAL_MILLIS, 2, 0, RestorePolicy.NONE,
        RestartPolicy.NEVER);
    if (unaligned) {
      settings = settings.withUnaligned(0);
    }
    try (LocalRun runner = LocalRun.create(settings, InProcessWorkerPool.Options.of(Map.of(heap.name(), heap))
        .withConnectors(new SlowSinks(ConnectorFactory.standard())), new CheckpointStore(plan.jobName(), objects,
            metadata), events)) {
      Thread job = new Thread(() -> {
        try {
          runner.run();
        } catch (CancellationException e) {
          // stopped after its time
        } catch (Exception e) {
          System.err.println("the run failed: " + e);
        }
      }, "bench-backpressure");
      job.start();
      job.join(TimeUnit.SECONDS.toMillis(seconds));
      runner.cancel();
      job.join();
    } finally {
      heap.close();
      metadata.close();
      objects.close();
    }
    synchronized (events) {
      return new Run(unaligned ? "unaligned" : "aligned", List.copyOf(events.stats), List.copyOf(events.records),
          List.copyOf(events.bytes));
    }
  }

  /** Collects the periodic checkpoints' figures and what they hold in flight. */
  private static final class Events implements JobMaster.Events {
    final List<CheckpointStats> stats = new ArrayList<>();
    final List<Long> records = new ArrayList<>();
    final List<Long> bytes = new ArrayList<>();

    @Override
    public synchronized void completed(CheckpointMetadata metadata, CheckpointStats s) {
      stats.add(s);
      long n = 0;
      java.util.Map<String, Long> objects = new java.util.HashMap<>();
      for (TaskState t : metadata.tasks()) {
        for (OperatorState o : t.operators().values()) {
          if (o.inFlight() != null) {
            n += o.inFlight().records();
            objects.put(o.inFlight().object(), o.inFlight().bytes());
          }
        }
      }
      records.add(n);
      bytes.add(objects.values().stream().mapToLong(Long::longValue).sum());
    }
  }

  /** The standard connectors, each sink record taking {@value #SINK_MICROS} µs. */
  private record SlowSinks(ConnectorFactory standard) implements ConnectorFactory {
    @Override
    public SourceConnector source(SourcePlan plan) {
      return standard.source(plan);
    }

    @Override
    public SinkConnector sink(SinkPlan plan) {
      return new SlowSink(standard.sink(plan), SINK_MICROS);
    }
  }
}
