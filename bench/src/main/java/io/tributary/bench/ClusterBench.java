package io.tributary.bench;

import io.tributary.boot.ClusterSecret;
import io.tributary.boot.EmbeddedServices;
import io.tributary.boot.WorkersOption;
import io.tributary.cli.client.DurationOption;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.TaskMetrics;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.protocol.WorkerSlots;
import io.tributary.scheduler.lifecycle.CheckpointRef;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.state.StateBackends;
import io.tributary.worker.task.ConnectorFactory;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench cluster}: what running on worker processes costs, and how fast a job on
 * them survives losing one and rescales.
 *
 * <p>Everything runs through the control plane a server runs ({@link JobManager} over
 * {@link EmbeddedServices}), once with in-process workers and once with two local worker processes
 * ({@code --workers local:2}), each under a data directory of its own. The figures come from the
 * same place in both: the workers' metrics reports (every {@code --report-interval}), whose task
 * counters are read on the worker and timed by its monotonic clock (one clock for every process of
 * this host), seen through a pass-through of the pool.
 *
 * <ul>
 *   <li><b>throughput</b>: the keyed window count (bids per auction in 10 s tumbling windows,
 *       checkpoints every 10 s), the same spec and parallelism in both: records into the window tasks
 *       per second, and per CPU-second of every process involved (this one, which is also the
 *       control plane, plus the worker processes). Interleaved repeats; medians.
 *   <li><b>recovery</b> (worker processes): a job that grows keyed state (forst) until a completed
 *       checkpoint holds each {@code --state-sizes}; then {@code kill -9} of a worker that runs
 *       window tasks, and the time until the restarted job's window tasks process records again.
 *   <li><b>rescale</b> (worker processes, the same jobs): parallelism 2 → 3 → 2 through
 *       {@link JobManager#rescale} (checkpoint, stop, start from it): the time window tasks process
 *       nothing, from the last progress of the old run to the first records of the new one.
 * </ul>
 * Nothing is asserted; the figures are printed against the targets.
 */
@Command(name = "cluster", description = {
    "Worker processes against in-process workers: keyed window throughput and CPU per",
    "event on 2 worker processes vs in-process at the same parallelism; time from kill -9",
    "of a worker to processing again, and of a rescale 2 -> 3 -> 2, at two state sizes."})
final class ClusterBench implements Callable<Integer> {
  private static final String P = "default";
  private static final double TARGET_PER_CPU = 0.85;
  private static final double TARGET_RECOVERY_SECONDS = 5;
  private static final double TARGET_RECOVERY_RATIO = 1.5;
  private static final double TARGET_PAUSE_SECONDS = 3;

  @Option(names = "--parts", split = ",", defaultValue = "throughput,recovery,rescale",
      description = "what to run: throughput, recovery, rescale, restart (default ${DEFAULT-VALUE}; restart: a "
          + "server on S3Proxy and dynalite restarted on an empty disk)")
  List<String> parts;

  @Option(names = "--dynalite-dir", description = "where dynalite's package.json is, for --parts restart (default: "
      + "the repository's scheduler/src/test/dynalite)")
  Path dynaliteDir;

  @Option(names = "--pools", split = ",", defaultValue = "in-process,workers",
      description = "the pools of the throughput part (default ${DEFAULT-VALUE}; one alone: to profile it)")
  List<String> pools;

  @Option(names = "--run-seconds", defaultValue = "20",
      description = "throughput measured over this long per run, after --settle (default ${DEFAULT-VALUE})")
  int runSeconds;

  @Option(names = "--settle", defaultValue = "5s", converter = DurationOption.class,
      description = "a throughput run counts from this long after its first records (default ${DEFAULT-VALUE})")
  Duration settle;

  @Option(names = "--warmup", defaultValue = "15s", converter = DurationOption.class,
      description = "an unmeasured run on each pool first, so that every JVM runs compiled code (default "
          + "${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = "--repeat", defaultValue = "3",
      description = "throughput runs per pool, interleaved; the median counts (default ${DEFAULT-VALUE})")
  int repeat;

  @Option(names = {"-p", "--parallelism"}, defaultValue = "2",
      description = "throughput job parallelism, the same total in both pools (default ${DEFAULT-VALUE})")
  int parallelism;

  @Option(names = "--state", defaultValue = "forst",
      description = "state backend of the throughput job: heap or forst (default ${DEFAULT-VALUE})")
  String stateBackend;

  @Option(names = "--worker-slots", defaultValue = "4",
      description = "slots of each of the 2 worker processes (default ${DEFAULT-VALUE}: one holds a whole "
          + "parallelism-2 job, so a job can restart on the survivor at once)")
  int workerSlots;

  @Option(names = "--worker-heap", defaultValue = "6g",
      description = "heap of each worker process of the recovery and rescale jobs (default ${DEFAULT-VALUE}: "
          + "window timers of millions of keys live on the heap); the throughput part gives each worker half of "
          + "this process's heap, where the in-process pool runs all tasks")
  String workerHeap;

  @Option(names = "--state-sizes", split = ",", defaultValue = "100m,1g",
      description = "keyed state before the kill and the rescales (default ${DEFAULT-VALUE})")
  List<String> stateSizes;

  @Option(names = "--build-timeout", defaultValue = "240s", converter = DurationOption.class,
      description = "go on with less state after this long (default ${DEFAULT-VALUE})")
  Duration buildTimeout;

  @Option(names = "--state-interval", defaultValue = "5s", converter = DurationOption.class,
      description = "checkpoint interval of the state jobs (default ${DEFAULT-VALUE})")
  Duration stateInterval;

  @Option(names = "--report-interval", defaultValue = "100ms", converter = DurationOption.class,
      description = "how often workers report metrics: the resolution of the timings (default ${DEFAULT-VALUE})")
  Duration reportInterval;

  @Option(names = "--observe", defaultValue = "60s", converter = DurationOption.class,
      description = "how long to wait for a job to process again (default ${DEFAULT-VALUE})")
  Duration observe;

  @Option(names = "--work-dir", description = "where data directories go (default: a temp dir)")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    for (String p : parts) {
      if (!Set.of("throughput", "recovery", "rescale", "restart").contains(p)) {
        throw new IllegalArgumentException("--parts: '" + p + "' is none of throughput, recovery, rescale, restart");
      }
    }
    if (!stateBackend.equals("heap") && !stateBackend.equals("forst")) {
      throw new IllegalArgumentException("--state must be heap or forst, not '" + stateBackend + "'");
    }
    if (workerSlots < 2 * parallelism) {
      throw new IllegalArgumentException("--worker-slots must be at least 2 x --parallelism (" + 2 * parallelism
          + ") so that one worker holds the job");
    }
    Path dir = workDir == null ? Files.createTempDirectory("tributary-bench-cluster")
        : Files.createTempDirectory(Files.createDirectories(workDir), "bench-cluster-");
    Thread cleanup = new Thread(() -> deleteTree(dir), "bench-cluster-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    PrintStream out = System.out;
    try {
      out.printf("cluster bench: %d cores, worker processes: 2 x %d slots, metrics reported every %d ms%n",
          Runtime.getRuntime().availableProcessors(), workerSlots, reportInterval.toMillis());
      if (parts.contains("throughput")) {
        throughput(dir, out);
      }
      if (parts.contains("recovery") || parts.contains("rescale")) {
        recoveryAndRescale(dir, out);
      }
      if (parts.contains("restart")) {
        restartOnEmptyDisk(dir, out);
      }
    } finally {
      deleteTree(dir);
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
    return 0;
  }

  // ---- throughput ----

  private record Run(String pool, double recordsPerSecond, double cpuSeconds, double seconds, long records) {
    double perCpuSecond() {
      return records / cpuSeconds;
    }

    double cpuMicrosPerRecord() {
      return cpuSeconds * 1e6 / records;
    }
  }

  private void throughput(Path dir, PrintStream out) throws Exception {
    String spec = NexmarkQueries.spec("count", 1L << 40, parallelism, stateBackend);
    out.printf("throughput: nexmark count (bids per auction, 10 s tumbling; checkpoints every 10 s), parallelism %d,"
        + " %s state, %d s per run after %d s to settle, %d interleaved runs per pool; heap: in-process %d MiB,"
        + " each worker process %s%n", parallelism, stateBackend, runSeconds, settle.toSeconds(), repeat,
        Runtime.getRuntime().maxMemory() >> 20, halfHeap());
    List<Env> envs = new ArrayList<>();
    try {
      for (String pool : pools) {
        switch (pool) {
          case "in-process" -> envs.add(Env.inProcess(dir.resolve("in-process"), reportInterval));
          case "workers" -> envs.add(Env.workers(dir.resolve("workers"), workerSlots, halfHeap(), reportInterval));
          default -> throw new IllegalArgumentException("--pools: '" + pool + "' is neither in-process nor workers");
        }
      }
      System.err.println("warming up");
      for (Env env : envs) {
        countRun(env, spec, "warm-up", warmup);
      }
      List<List<Run>> runs = new ArrayList<>();
      envs.forEach(e -> runs.add(new ArrayList<>()));
      Duration window = Duration.ofSeconds(runSeconds);
      for (int i = 0; i < repeat; i++) {
        for (int e = 0; e < envs.size(); e++) {
          runs.get(e).add(countRun(envs.get(e), spec, "run-" + i, window));
        }
      }
      out.printf("%-22s %14s %14s %12s %8s%n", "pool", "records/s", "per CPU-second", "CPU us/rec", "CPU s");
      for (int i = 0; i < repeat; i++) {
        for (List<Run> pool : runs) {
          Run r = pool.get(i);
          out.printf("%-22s %,14.0f %,14.0f %12.2f %8.1f%n", r.pool() + " #" + (i + 1), r.recordsPerSecond(),
              r.perCpuSecond(), r.cpuMicrosPerRecord(), r.cpuSeconds());
        }
      }
      if (runs.size() == 2) {
        List<Run> local = runs.get(0);
        List<Run> remote = runs.get(1);
        double rateLocal = median(local, Run::recordsPerSecond);
        double rateRemote = median(remote, Run::recordsPerSecond);
        double cpuLocal = median(local, Run::perCpuSecond);
        double cpuRemote = median(remote, Run::perCpuSecond);
        out.printf("throughput (median): in-process %,.0f records/s (%s), 2 worker processes %,.0f records/s (%s)"
            + " = %.1f%%%n", rateLocal, spread(local, Run::recordsPerSecond), rateRemote,
            spread(remote, Run::recordsPerSecond), 100 * rateRemote / rateLocal);
        out.printf("per CPU-second (median): in-process %,.0f (%s), 2 worker processes %,.0f (%s) = %.1f%% (target"
            + " >= %.0f%%: %s)%n", cpuLocal, spread(local, Run::perCpuSecond), cpuRemote,
            spread(remote, Run::perCpuSecond), 100 * cpuRemote / cpuLocal, 100 * TARGET_PER_CPU,
            cpuRemote >= TARGET_PER_CPU * cpuLocal ? "met" : "missed");
      }
    } finally {
      for (Env env : envs) {
        env.close();
      }
    }
  }

  /** "min-max" of the runs. */
  private static String spread(List<Run> runs, java.util.function.ToDoubleFunction<Run> f) {
    double[] v = runs.stream().mapToDouble(f).sorted().toArray();
    return String.format("runs %,.0f-%,.0f", v[0], v[v.length - 1]);
  }

  /** Half this process's heap, as a JVM option value ({@code 1024m}). */
  private static String halfHeap() {
    return (Runtime.getRuntime().maxMemory() >> 21) + "m";
  }

  private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> f) {
    double[] v = runs.stream().mapToDouble(f).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** Runs the count job, counts the records into its window tasks over {@code window}, deletes it. */
  private Run countRun(Env env, String spec, String name, Duration window) throws Exception {
    String job = "count-" + name;
    env.jobs.apply(P, job, spec.replace("name: nexmark-count", "name: " + job), null);
    AttemptId attempt = env.awaitProcessing(job, null, observe);
    await("the first records of " + job, observe, () -> env.observer.firstRecordsAt(attempt) != 0);
    sleepNanos(settle.toNanos());
    Map<String, Sample> s0 = env.observer.snapshot(attempt);
    long cpu0 = env.cpuNanos();
    long t0 = System.nanoTime();
    sleepNanos(window.toNanos());
    Map<String, Sample> s1 = env.observer.snapshot(attempt);
    long cpu1 = env.cpuNanos();
    long t1 = System.nanoTime();
    env.jobs.delete(P, job, null, true);
    env.awaitIdle(observe);
    long records = 0;
    double nanos = 0;
    for (Map.Entry<String, Sample> e : s1.entrySet()) {
      Sample a = s0.get(e.getKey());
      if (a == null) {
        throw new IllegalStateException("task " + e.getKey() + " reported nothing at the start of the window");
      }
      records += e.getValue().recordsIn() - a.recordsIn();
      nanos += e.getValue().atNanos() - a.atNanos();
    }
    double seconds = nanos / s1.size() / 1e9;
    double cpu = (cpu1 - cpu0) / 1e9 * seconds / ((t1 - t0) / 1e9); // CPU over the reports' span
    System.err.printf("  %s %s: %,d records in %.2f s, %.1f CPU s%n", env.name, job, records, seconds, cpu);
    return new Run(env.name, records / seconds, cpu, seconds, records);
  }

  // ---- recovery and rescale ----

  private record Recovery(long stateBytes, double killToRedeploy, double redeployToRecords, double total,
      double toFullRate, String victim, int tasksLost) {}

  private record Rescale(int from, int to, long stateBytes, double pause, double requestToRecords) {}

  private void recoveryAndRescale(Path dir, PrintStream out) throws Exception {
    out.printf("recovery and rescale: bids keyed by (bidder, auction, extra), 16 aggregates per one-day window,"
        + " forst state, parallelism 2, checkpoints every %s, 2 worker processes x %d slots, -Xmx%s each%n",
        stateInterval.toSeconds() + " s", workerSlots, workerHeap);
    Map<String, Recovery> recoveries = new LinkedHashMap<>();
    Map<String, List<Rescale>> rescales = new LinkedHashMap<>();
    int n = 0;
    for (String size : stateSizes) {
      long target = StateBackends.parseBytes(size);
      try (Env env = Env.workers(dir.resolve("state-" + n++), workerSlots, workerHeap, reportInterval)) {
        String job = "state-" + size;
        String spec = NexmarkQueries.stateSpec(job, 2, "forst", List.of("bidder", "auction", "extra"), 16)
            .replace("parallelism: 2\n", "parallelism: {initial: 2, min: 1, max: 4}\n"
                + "checkpoints: {interval: " + stateInterval.toMillis() + "ms}\n");
        env.jobs.apply(P, job, spec, null);
        AttemptId first = env.awaitProcessing(job, null, observe);
        System.err.printf("building %s of keyed state%n", size);
        long built = buildState(env, job, target);
        if (parts.contains("recovery")) {
          recoveries.put(size, recover(env, job, first, built));
          env.awaitWorkers(2, observe);
        }
        if (parts.contains("rescale")) {
          List<Rescale> r = new ArrayList<>();
          r.add(rescale(env, job, 2, 3));
          r.add(rescale(env, job, 3, 2));
          rescales.put(size, r);
        }
        env.jobs.delete(P, job, null, true);
      }
    }
    printRecoveries(recoveries, out);
    printRescales(rescales, out);
  }

  /** Waits until a completed checkpoint of {@code job} holds {@code target} bytes of keyed state; returns its size. */
  private long buildState(Env env, String job, long target) throws InterruptedException {
    long deadline = System.nanoTime() + buildTimeout.toNanos();
    long last = 0;
    long biggest = 0;
    while (System.nanoTime() < deadline) {
      for (CheckpointRef c : env.jobs.checkpoints(P, job)) {
        if (c.summary() != null && c.summary().stateBytes() != null) {
          biggest = Math.max(biggest, c.summary().stateBytes());
        }
      }
      if (biggest != last) {
        System.err.printf("  checkpoint with %s of keyed state%n", CheckpointBench.bytes(biggest));
        last = biggest;
      }
      if (biggest >= target) {
        return biggest;
      }
      Thread.sleep(200);
    }
    System.err.printf("  --build-timeout reached with %s%n", CheckpointBench.bytes(biggest));
    return biggest;
  }

  private Recovery recover(Env env, String job, AttemptId before, long stateBytes) throws Exception {
    AttemptId running = env.observer.current();
    AttemptDeployment d = env.observer.deployment();
    Set<String> windowWorkers = d.tasks().stream().filter(t -> !isSource(d, t)).map(TaskDeployment::worker)
        .collect(Collectors.toSet());
    String victim = windowWorkers.stream().sorted().findFirst().orElseThrow();
    int lost = (int) d.tasks().stream().filter(t -> t.worker().equals(victim)).count();
    long pid = env.remote.workers().stream().filter(w -> w.id().equals(victim)).findFirst().orElseThrow().pid();
    double rateBefore = env.observer.rate(running, TimeUnit.SECONDS.toNanos(2));
    System.err.printf("kill -9 of %s (pid %d, %d of the job's tasks), %,.0f records/s into the window tasks before%n",
        victim, pid, lost, rateBefore);
    long killedAt = System.nanoTime();
    ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    AttemptId next = env.awaitProcessing(job, running, observe);
    long redeployedAt = env.observer.deployedAt(next);
    long recordsAt = env.observer.firstRecordsAt(next);
    long fullAt = env.observer.awaitRate(next, 0.8 * rateBefore, TimeUnit.MILLISECONDS.toNanos(500), observe);
    System.err.printf("  processing again after %.2f s%n", (recordsAt - killedAt) / 1e9);
    java.time.Instant since = java.time.Instant.now().minusNanos(System.nanoTime() - killedAt);
    env.jobs.events(P, job).stream().filter(e -> !e.time().isBefore(since))
        .sorted(Comparator.comparingLong(io.tributary.scheduler.lifecycle.JobEvent::seq))
        .forEach(e -> System.err.println("    " + e.time() + " " + e.type() + " " + e.message()));
    return new Recovery(stateBytes, (redeployedAt - killedAt) / 1e9, (recordsAt - redeployedAt) / 1e9,
        (recordsAt - killedAt) / 1e9, fullAt == 0 ? Double.NaN : (fullAt - killedAt) / 1e9, victim, lost);
  }

  private Rescale rescale(Env env, String job, int from, int to) throws Exception {
    await(job + " runs at parallelism " + from, observe, () -> env.jobs.get(P, job).observed() == ObservedState.RUNNING
        && env.jobs.get(P, job).parallelism() == from && env.observer.firstRecordsAt(env.observer.current()) != 0);
    sleepNanos(TimeUnit.SECONDS.toNanos(2)); // a steady rate before the rescale
    AttemptId old = env.observer.current();
    long requestedAt = System.nanoTime();
    env.jobs.rescale(P, job, to);
    AttemptId next = env.awaitProcessing(job, old, observe);
    long lastOld = env.observer.lastProgressAt(old);
    long firstNew = env.observer.firstRecordsAt(next);
    CheckpointRef at = env.jobs.get(P, job).lastCheckpoint();
    long stateBytes = at != null && at.summary() != null && at.summary().stateBytes() != null
        ? at.summary().stateBytes() : 0L;
    System.err.printf("  rescale %d -> %d: paused %.2f s%n", from, to, (firstNew - lastOld) / 1e9);
    java.time.Instant since = java.time.Instant.now().minusNanos(System.nanoTime() - requestedAt);
    env.jobs.events(P, job).stream().filter(e -> !e.time().isBefore(since))
        .sorted(Comparator.comparingLong(io.tributary.scheduler.lifecycle.JobEvent::seq))
        .forEach(e -> System.err.println("    " + e.time() + " " + e.type() + " " + e.message()));
    return new Rescale(from, to, stateBytes, (firstNew - lastOld) / 1e9, (firstNew - requestedAt) / 1e9);
  }

  private static boolean isSource(AttemptDeployment d, TaskDeployment t) {
    StagePlan stage = d.plan().stages().stream().filter(s -> s.id() == t.stageId()).findFirst().orElseThrow();
    return stage.operators().get(0) instanceof SourcePlan;
  }

  private void printRecoveries(Map<String, Recovery> recoveries, PrintStream out) {
    if (recoveries.isEmpty()) {
      return;
    }
    out.printf("%-10s %12s %14s %16s %10s %14s%n", "state", "in checkpoint", "kill->redeploy", "redeploy->records",
        "total", "to 80% rate");
    for (Map.Entry<String, Recovery> e : recoveries.entrySet()) {
      Recovery r = e.getValue();
      out.printf("%-10s %12s %13.2fs %15.2fs %9.2fs %13.2fs%n", e.getKey(), CheckpointBench.bytes(r.stateBytes()),
          r.killToRedeploy(), r.redeployToRecords(), r.total(), r.toFullRate());
    }
    List<Recovery> rs = new ArrayList<>(recoveries.values());
    double worst = rs.stream().mapToDouble(Recovery::total).max().orElse(0);
    out.printf("kill -9 to processing again: %s (target < %.0f s: %s)", rs.stream()
        .map(r -> String.format("%.2f s with %s", r.total(), CheckpointBench.bytes(r.stateBytes())))
        .collect(Collectors.joining(", ")), TARGET_RECOVERY_SECONDS, worst < TARGET_RECOVERY_SECONDS ? "met" : "missed");
    if (rs.size() >= 2) {
      double ratio = rs.get(rs.size() - 1).total() / rs.get(0).total();
      out.printf("; largest / smallest state: %.2fx (target <= %.1fx: %s)", ratio, TARGET_RECOVERY_RATIO,
          ratio <= TARGET_RECOVERY_RATIO ? "met" : "missed");
    }
    out.println();
  }

  private void printRescales(Map<String, List<Rescale>> rescales, PrintStream out) {
    if (rescales.isEmpty()) {
      return;
    }
    out.printf("%-10s %-8s %12s %16s %18s%n", "state", "rescale", "checkpoint", "paused", "request->records");
    out.println("(checkpoint: the keyed state of the job's latest checkpoint after the rescale, which ends the run at"
        + " a checkpoint and starts the new one from it)");
    double worst = 0;
    for (Map.Entry<String, List<Rescale>> e : rescales.entrySet()) {
      for (Rescale r : e.getValue()) {
        out.printf("%-10s %-8s %12s %15.2fs %17.2fs%n", e.getKey(), r.from() + "->" + r.to(),
            r.stateBytes() == 0 ? "none" : CheckpointBench.bytes(r.stateBytes()), r.pause(), r.requestToRecords());
        worst = Math.max(worst, r.pause());
      }
    }
    out.printf("rescale 2 -> 3 -> 2, paused processing: at most %.2f s (target < %.0f s, flat in state size: %s)%n",
        worst, TARGET_PAUSE_SECONDS, worst < TARGET_PAUSE_SECONDS ? "met" : "missed");
  }

  // ---- restart on an empty disk ----

  private record Restart(long stateBytes, double toWorkers, double toRedeploy, double toRecords) {}

  /**
   * For each state size: a control plane on S3 (S3Proxy over a local directory, in this process)
   * and DynamoDB (dynalite) grows the state job's keyed state, stops, and its data directory is
   * deleted; a new control plane on an empty directory and the same stores starts (its two worker
   * processes included) and resumes the job from S3: the time from that start to the window tasks
   * processing records again.
   */
  private void restartOnEmptyDisk(Path dir, PrintStream out) throws Exception {
    out.printf("restart on an empty disk: the state job (forst, parallelism 2, checkpoints every %s) on S3Proxy and"
        + " dynalite, 2 worker processes x %d slots, -Xmx%s each%n", stateInterval.toSeconds() + " s", workerSlots,
        workerHeap);
    Path dynalite = dynaliteDir != null ? dynaliteDir : repositoryRoot().resolve("scheduler/src/test/dynalite");
    Map<String, Restart> restarts = new LinkedHashMap<>();
    try (BenchStores stores = BenchStores.start(dir.resolve("s3"), dynalite)) {
      int n = 0;
      for (String size : stateSizes) {
        long target = StateBackends.parseBytes(size);
        io.tributary.boot.ServerConfiguration cloud = stores.configuration("restart-" + n, "bench-restart-" + n);
        Path first = dir.resolve("restart-" + n + "-before");
        Path second = dir.resolve("restart-" + n + "-after");
        n++;
        String job = "state-" + size;
        long built;
        try (Env env = Env.cloud(first, workerSlots, workerHeap, reportInterval, cloud)) {
          env.jobs.apply(P, job, NexmarkQueries.stateSpec(job, 2, "forst", List.of("bidder", "auction", "extra"), 16)
              .replace("parallelism: 2\n", "parallelism: 2\ncheckpoints: {interval: " + stateInterval.toMillis()
                  + "ms}\n"), null);
          env.awaitProcessing(job, null, observe);
          System.err.printf("building %s of keyed state on S3%n", size);
          built = buildState(env, job, target);
        }
        deleteTree(first);
        System.err.printf("restarting on an empty data directory%n");
        long startedAt = System.nanoTime();
        try (Env env = Env.cloud(second, workerSlots, workerHeap, reportInterval, cloud)) {
          long workersAt = System.nanoTime();
          AttemptId a = env.awaitProcessing(job, null, observe);
          long deployedAt = env.observer.deployedAt(a);
          long recordsAt = env.observer.firstRecordsAt(a);
          Restart r = new Restart(built, (workersAt - startedAt) / 1e9, (deployedAt - startedAt) / 1e9,
              (recordsAt - startedAt) / 1e9);
          System.err.printf("  processing again %.2f s after the start%n", r.toRecords());
          restarts.put(size, r);
          env.jobs.delete(P, job, null, true);
        }
      }
    }
    out.printf("%-10s %12s %18s %18s %18s%n", "state", "in checkpoint", "start->workers", "start->redeploy",
        "start->records");
    for (Map.Entry<String, Restart> e : restarts.entrySet()) {
      Restart r = e.getValue();
      out.printf("%-10s %12s %17.2fs %17.2fs %17.2fs%n", e.getKey(), CheckpointBench.bytes(r.stateBytes()),
          r.toWorkers(), r.toRedeploy(), r.toRecords());
    }
  }

  /** The repository this benchmark's jar was built in ({@code <root>/bench/target/...jar}). */
  private static Path repositoryRoot() throws Exception {
    Path jar = Path.of(ClusterBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return jar.getParent().getParent().getParent();
  }

  // ---- one control plane ----

  /** A task's latest counters as its worker read them. */
  private record Sample(long atNanos, long recordsIn) {}

  /**
   * A control plane over a data directory, its pool wrapped so that every deployment and metrics
   * report is seen here too.
   */
  static final class Env implements AutoCloseable {
    final String name;
    final JobManager jobs;
    final Observer observer;
    final RemoteWorkerPool remote;

    private Env(String name, ControlPlaneServices services, Observer observer) {
      this.name = name;
      this.observer = observer;
      this.remote = services.pool() instanceof RemoteWorkerPool r ? r : null;
      ControlPlaneServices seen = new ControlPlaneServices(services.metadata(), services.checkpoints(),
          services.stateBackends(), new ObservedPool(services.pool(), observer), services.splits(),
          services.workersHaveOwnState(), services);
      this.jobs = JobManager.open(JobManager.Settings.defaults()
          .withRestarts(new RestartPolicy(20, Duration.ofMillis(100), Duration.ofMillis(100)))
          .withActionTimeout(Duration.ofMinutes(5)), seen);
    }

    static Env inProcess(Path dir, Duration reportInterval) {
      return new Env("in-process", EmbeddedServices.open(dir, ConnectorFactory.standard(),
          ConnectorPolicy.unrestricted(), WorkersOption.IN_PROCESS.withMetricsInterval(reportInterval), null),
          new Observer());
    }

    static Env workers(Path dir, int slots, String heap, Duration reportInterval) throws InterruptedException {
      byte[] b = new byte[16];
      new SecureRandom().nextBytes(b);
      ControlPlaneServices s = EmbeddedServices.open(dir, ConnectorFactory.standard(), ConnectorPolicy.unrestricted(),
          new WorkersOption(WorkersOption.Kind.LOCAL, 2, slots, "127.0.0.1", 0, Duration.ofSeconds(5))
              .withMetricsInterval(reportInterval).withJavaOptions("-Xmx" + heap),
          new ClusterSecret("bench-" + HexFormat.of().formatHex(b), false));
      Env env = new Env("2 worker processes", s, new Observer());
      env.awaitWorkers(2, Duration.ofSeconds(60));
      return env;
    }

    /** Like {@link #workers}, on the stores {@code stores} names (the workers get the S3 credentials). */
    static Env cloud(Path dir, int slots, String heap, Duration reportInterval,
        io.tributary.boot.ServerConfiguration stores) throws InterruptedException {
      byte[] b = new byte[16];
      new SecureRandom().nextBytes(b);
      ControlPlaneServices s = EmbeddedServices.open(dir, ConnectorFactory.standard(), ConnectorPolicy.unrestricted(),
          new WorkersOption(WorkersOption.Kind.LOCAL, 2, slots, "127.0.0.1", 0, Duration.ofSeconds(5))
              .withMetricsInterval(reportInterval).withJavaOptions("-Xmx" + heap + " " + BenchStores.workerCredentials()),
          new ClusterSecret("bench-" + HexFormat.of().formatHex(b), false), stores);
      Env env = new Env("2 worker processes on S3", s, new Observer());
      env.awaitWorkers(2, Duration.ofSeconds(60));
      return env;
    }

    void awaitWorkers(int n, Duration timeout) throws InterruptedException {
      await(n + " workers registered", timeout, () -> remote.workers().size() >= n
          && remote.workers().stream().allMatch(w -> w.freeSlots() >= 0));
    }

    /** Waits until no attempt holds slots (a deleted job's tasks are gone). */
    void awaitIdle(Duration timeout) throws InterruptedException {
      if (remote != null) {
        await("the workers' slots free", timeout, () -> remote.workers().stream()
            .allMatch(w -> w.freeSlots() == w.slots()));
      }
    }

    /** Waits for an attempt of {@code job} other than {@code after} whose window tasks process records. */
    AttemptId awaitProcessing(String job, AttemptId after, Duration timeout) throws InterruptedException {
      await(job + " processing" + (after == null ? "" : " again"), timeout, () -> {
        AttemptId a = observer.current();
        return a != null && !a.equals(after) && a.job().endsWith(job) && observer.firstRecordsAt(a) != 0;
      });
      return observer.current();
    }

    /** CPU time of this process and of the worker processes, in nanoseconds. */
    long cpuNanos() {
      long n = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
          .getProcessCpuTime();
      if (remote != null) {
        for (RemoteWorkerPool.WorkerInfo w : remote.workers()) {
          n += ProcessHandle.of(w.pid()).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
        }
      }
      return n;
    }

    @Override
    public void close() {
      jobs.close();
    }
  }

  /** What the pool deployed and what its window tasks reported. */
  static final class Observer {
    private AttemptId current;
    private AttemptDeployment deployment;
    private final Map<AttemptId, Long> deployedAt = new LinkedHashMap<>();
    private final Map<AttemptId, Map<String, Sample>> latest = new HashMap<>();
    private final Map<AttemptId, Long> firstRecordsAt = new HashMap<>();
    private final Map<AttemptId, Long> lastProgressAt = new HashMap<>();
    /** {monotonic nanos, records into the window tasks} of the current attempt, as reports arrive. */
    private final List<long[]> series = new ArrayList<>();

    synchronized void deployed(AttemptDeployment d) {
      current = d.attempt();
      deployment = d;
      deployedAt.put(d.attempt(), System.nanoTime());
      series.clear();
    }

    synchronized void report(WorkerReport r) {
      if (!(r instanceof WorkerReport.Metrics m)) {
        return;
      }
      Map<String, Sample> tasks = latest.computeIfAbsent(m.attempt(), a -> new HashMap<>());
      long at = 0;
      for (TaskMetrics t : m.tasks()) {
        if (t.source()) {
          continue;
        }
        Sample before = tasks.get(t.taskId());
        if (t.recordsIn() > 0) {
          firstRecordsAt.merge(m.attempt(), t.atNanos(), Math::min);
        }
        if (t.recordsIn() > (before == null ? 0 : before.recordsIn())) {
          lastProgressAt.merge(m.attempt(), t.atNanos(), Math::max);
        }
        tasks.put(t.taskId(), new Sample(t.atNanos(), t.recordsIn()));
        at = Math.max(at, t.atNanos());
      }
      if (m.attempt().equals(current) && at != 0) {
        series.add(new long[] {at, tasks.values().stream().mapToLong(Sample::recordsIn).sum()});
        if (series.size() > 10_000) {
          series.subList(0, 5_000).clear();
        }
      }
    }

    synchronized AttemptId current() {
      return current;
    }

    synchronized AttemptDeployment deployment() {
      return deployment;
    }

    /** Every attempt deployed, in order. */
    synchronized List<AttemptId> attempts() {
      return List.copyOf(deployedAt.keySet());
    }

    synchronized long deployedAt(AttemptId a) {
      return deployedAt.getOrDefault(a, 0L);
    }

    synchronized long firstRecordsAt(AttemptId a) {
      return a == null ? 0 : firstRecordsAt.getOrDefault(a, 0L);
    }

    synchronized long lastProgressAt(AttemptId a) {
      return lastProgressAt.getOrDefault(a, 0L);
    }

    synchronized Map<String, Sample> snapshot(AttemptId a) {
      return Map.copyOf(latest.getOrDefault(a, Map.of()));
    }

    /** Records per second into the window tasks of {@code a} over its last {@code spanNanos}. */
    synchronized double rate(AttemptId a, long spanNanos) {
      if (!a.equals(current) || series.size() < 2) {
        return 0;
      }
      long[] last = series.get(series.size() - 1);
      for (long[] s : series) {
        if (last[0] - s[0] <= spanNanos && last[0] > s[0]) {
          return (last[1] - s[1]) / ((last[0] - s[0]) / 1e9);
        }
      }
      return 0;
    }

    /** Waits until {@code a} runs at {@code rate} over {@code spanNanos}; returns when that span began, 0 if never. */
    long awaitRate(AttemptId a, double rate, long spanNanos, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        synchronized (this) {
          if (series.size() >= 2 && a.equals(current)) {
            long[] last = series.get(series.size() - 1);
            for (int i = series.size() - 1; i >= 0; i--) {
              long[] s = series.get(i);
              if (last[0] - s[0] >= spanNanos) {
                if ((last[1] - s[1]) / ((last[0] - s[0]) / 1e9) >= rate) {
                  return s[0];
                }
                break;
              }
            }
          }
        }
        Thread.sleep(20);
      }
      return 0;
    }
  }

  /** The pool, with every deployment and report also given to the observer. */
  private record ObservedPool(WorkerPool pool, Observer observer) implements WorkerPool {
    @Override
    public List<WorkerSlots> acquire(AttemptId attempt, int slots) {
      return pool.acquire(attempt, slots);
    }

    @Override
    public void deploy(AttemptDeployment deployment, WorkerReports reports) {
      observer.deployed(deployment);
      pool.deploy(deployment, r -> {
        observer.report(r);
        reports.report(r);
      });
    }

    @Override
    public void triggerCheckpoint(AttemptId attempt, long checkpointId) {
      pool.triggerCheckpoint(attempt, checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(AttemptId attempt, io.tributary.checkpoint.CheckpointMetadata checkpoint) {
      pool.notifyCheckpointComplete(attempt, checkpoint);
    }

    @Override
    public void cancel(AttemptId attempt) {
      pool.cancel(attempt);
    }

    @Override
    public void release(AttemptId attempt) {
      pool.release(attempt);
    }

    @Override
    public void close() {
      // the services close the pool they opened
    }
  }

  // ---- helpers ----

  static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what);
      }
      Thread.sleep(10);
    }
  }

  private static void sleepNanos(long nanos) throws InterruptedException {
    TimeUnit.NANOSECONDS.sleep(nanos);
  }

  static void deleteTree(Path dir) {
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
