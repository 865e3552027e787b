package io.tributary.bench;

import io.tributary.worker.state.StateBackends;
import com.sun.management.OperatingSystemMXBean;
import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.WorkerReport;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.boot.LocalRun;
import io.tributary.worker.pool.InProcessWorkerPool;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench nexmark}: runs Nexmark queries over a bounded stream of generated bids and
 * prints events per second and CPU seconds, next to a plain single-threaded loop that computes a
 * keyed tumbling-window count over the same bids.
 */
@Command(name = "nexmark", description = "Nexmark queries: events per second and CPU seconds.")
final class NexmarkBench implements Callable<Integer> {
  @Option(names = {"-q", "--query"}, split = ",", defaultValue = "q0,q1,q2,q5,q7,q11,count",
      description = "queries, comma separated (default ${DEFAULT-VALUE})")
  List<String> queries;

  @Option(names = {"-n", "--events"}, defaultValue = "5000000", description = "bids per run (default ${DEFAULT-VALUE})")
  long events;

  @Option(names = {"-p", "--parallelism"}, defaultValue = "1", description = "job parallelism (default ${DEFAULT-VALUE})")
  int parallelism;

  @Option(names = "--state", defaultValue = "forst", description = "state backend (default ${DEFAULT-VALUE})")
  String stateBackend;

  @Option(names = "--warmup", defaultValue = "1000000", description = "bids in an unmeasured first run (default ${DEFAULT-VALUE})")
  long warmup;

  @Override
  public Integer call() throws Exception {
    Map<String, Figures> figures = new LinkedHashMap<>();
    if (warmup > 0) {
      for (String q : queries) {
        run(q, Math.min(warmup, events));
      }
      PlainLoop.keyedTumblingCount(Math.min(warmup, events), 0);
    }
    System.out.printf("nexmark: %,d bids per run, parallelism %d, %s state, %d cores%n",
        events, parallelism, stateBackend, Runtime.getRuntime().availableProcessors());
    for (String q : queries) {
      Figures f = run(q, events);
      String line = String.format("%-6s %,14.0f events/s   %7.2f s wall   %7.2f s CPU   %,d results",
          q, events / f.wallSeconds, f.wallSeconds, f.cpuSeconds, f.results);
      System.out.println(line);
      figures.put(q, f);
    }
    PlainLoop.Result loop = PlainLoop.keyedTumblingCount(events, 0);
    System.out.printf("loop   %,14.0f events/s   %7.2f s wall   (plain Java loop: keyed 10 s tumbling count, %,d results)%n",
        loop.eventsPerSecond(), loop.seconds(), loop.windowResults());
    Figures c = figures.get("count");
    if (c != null) {
      double ratio = (events / c.wallSeconds) / loop.eventsPerSecond();
      System.out.printf("ratio  count / loop = %.1f%% (tributary %,.0f events/s vs loop %,.0f events/s)%n",
          ratio * 100, events / c.wallSeconds, loop.eventsPerSecond());
    }
    return 0;
  }

  private record Figures(double wallSeconds, double cpuSeconds, long results) {}

  /** The records the sinks wrote, from the workers' final metrics of each task. */
  private static final class ResultCounter implements JobMaster.Events {
    private final Map<String, Long> bySinkTask = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void observed(WorkerReport report) {
      if (report instanceof WorkerReport.Metrics m) {
        m.tasks().forEach(t -> bySinkTask.put(t.taskId(), t.recordsOut()));
      }
    }

    long recordsOut() {
      return bySinkTask.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private Figures run(String query, long n) throws InterruptedException {
    ExecutionPlan plan = Planner.plan(JobSpecs.parse(NexmarkQueries.spec(query, n, parallelism, stateBackend)));
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    ResultCounter results = new ResultCounter();
    try (StateBackends state = new StateBackends();
        LocalRun run = LocalRun.create(JobMaster.Settings.withoutCheckpoints(plan),
            InProcessWorkerPool.Options.of(state.factories()), null, results)) {
      run.run();
    }
    long t1 = System.nanoTime();
    long cpu1 = os.getProcessCpuTime();
    return new Figures((t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9, results.recordsOut());
  }
}
