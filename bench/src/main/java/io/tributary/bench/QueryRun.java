package io.tributary.bench;

import com.sun.management.OperatingSystemMXBean;
import io.tributary.boot.LocalRun;
import io.tributary.connectors.debug.BlackholeSink;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.state.forst.rocks.ForstMetrics;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.store.ObjectStore;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.state.StateBackends;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * One run of a job spec on Tributary in this process ({@link LocalRun}: a job master on in-process
 * workers), its state and checkpoints in a temporary directory deleted afterwards. Measured from
 * the job's start to its end (its sinks committed): wall time, the process CPU time of this JVM in
 * between, and the records its blackhole sinks took.
 *
 * <p>{@link #main} is one measured run of a {@link NexmarkQueries} query in a JVM of its own, for
 * {@code bench flink}.
 */
final class QueryRun {
  /** Job checkpoints are taken with at most this many retained. */
  private static final int RETAINED = 2;
  private static final long CHECKPOINT_TIMEOUT_MILLIS = 60_000;

  private QueryRun() {}

  /**
   * What to run.
   *
   * @param checkpointMillis the checkpoint interval; 0: no checkpoints
   */
  record Settings(String query, long events, int parallelism, String state, long checkpointMillis) {}

  /**
   * What a run measured; {@code heapAfterGcBytes}: the most heap held right after a collection
   * during the run ({@link HeapWatch}); {@code caches}: the forst backend's cache hit rates
   * ({@code ForstMetrics#describeCaches}), null when the job used no forst state.
   */
  record Figures(double wallSeconds, double cpuSeconds, long results, long heapAfterGcBytes, String caches) {}

  /** Runs the {@link NexmarkQueries} query once and measures it. */
  static Figures run(Settings s) throws InterruptedException {
    return run(NexmarkQueries.spec(s.query(), s.events(), s.parallelism(), s.state()), s.checkpointMillis());
  }

  /**
   * Runs the job of {@code spec} once and measures it.
   *
   * @param checkpointMillis the checkpoint interval; 0: no checkpoints
   */
  static Figures run(String spec, long checkpointMillis) throws InterruptedException {
    JobSpec job = JobSpecs.parse(spec);
    ExecutionPlan plan = Planner.plan(job);
    Path dir = tempDir();
    ObjectStore objects = ObjectStores.open(dir.resolve("objects").toString());
    try (EmbeddedMetadataStore metadata = new EmbeddedMetadataStore(dir.resolve("metadata"));
        StateBackends state = new StateBackends(objects, dir.resolve("local"))) {
      CheckpointStore store = checkpointMillis > 0 ? new CheckpointStore(plan.jobName(), objects, metadata) : null;
      JobMaster.Settings settings = checkpointMillis > 0
          ? new JobMaster.Settings(plan, checkpointMillis, RETAINED, CHECKPOINT_TIMEOUT_MILLIS,
              RestorePolicy.NONE, RestartPolicy.NEVER)
          : JobMaster.Settings.withoutCheckpoints(plan);
      Figures f = measure(settings, InProcessWorkerPool.Options.of(state.factories()), store, job.sinks().keySet());
      String caches = state.forstMetrics().map(ForstMetrics::describeCaches).orElse(null);
      return new Figures(f.wallSeconds(), f.cpuSeconds(), f.results(), f.heapAfterGcBytes(), caches);
    } finally {
      objects.close();
      deleteTree(dir);
    }
  }

  private static Figures measure(JobMaster.Settings settings, InProcessWorkerPool.Options options,
      CheckpointStore store, Set<String> sinks) throws InterruptedException {
    sinks.forEach(BlackholeSink::reset);
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    long heap;
    try (HeapWatch watch = new HeapWatch()) {
      try (LocalRun run = LocalRun.create(settings, options, store, new JobMaster.Events() {})) {
        run.run();
      }
      heap = watch.maxAfterGc();
    }
    long t1 = System.nanoTime();
    long cpu1 = os.getProcessCpuTime();
    long results = sinks.stream().mapToLong(BlackholeSink::count).sum();
    return new Figures((t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9, results, heap, null);
  }

  /**
   * One measured run after an unmeasured warm-up run, printed as one line {@code result wall=<s>
   * cpu=<s> results=<n>}. Arguments: query, events, parallelism, state backend, checkpoint interval
   * in milliseconds (0: none), warm-up events (0: none).
   */
  public static void main(String[] args) throws InterruptedException {
    BenchCommand.quietLogging();
    if (args.length != 6) {
      System.err.println("usage: QueryRun QUERY EVENTS PARALLELISM STATE CHECKPOINT_MILLIS WARMUP_EVENTS");
      System.exit(2);
    }
    Settings s = new Settings(args[0], Long.parseLong(args[1]), Integer.parseInt(args[2]), args[3],
        Long.parseLong(args[4]));
    long warmup = Long.parseLong(args[5]);
    if (warmup > 0) {
      run(new Settings(s.query(), warmup, s.parallelism(), s.state(), s.checkpointMillis()));
    }
    System.gc();
    Figures f = run(s);
    System.out.printf("result wall=%.6f cpu=%.6f results=%d%n", f.wallSeconds(), f.cpuSeconds(), f.results());
    System.exit(0);
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("tributary-bench-");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Deletes {@code dir} and what it holds, skipping what disappears meanwhile (the checkpoint store
   * may still be removing old checkpoints when a run ends).
   */
  private static void deleteTree(Path dir) {
    try {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) {
          d.toFile().delete();
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      System.err.println("tributary: could not delete all of " + dir + ": " + e.getMessage());
    }
  }
}
