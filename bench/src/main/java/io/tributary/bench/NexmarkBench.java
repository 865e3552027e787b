package io.tributary.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench nexmark}: runs queries over a bounded stream of generated events, for each
 * state backend asked for, and prints per query and backend events per second, wall and CPU seconds
 * and CPU seconds per million events; then what generating the same events alone costs (every
 * query line includes it), and a plain single-threaded loop that does the window queries' work on
 * records generated beforehand.
 */
@Command(name = "nexmark", description = "Nexmark queries in SQL and keyed-window: events per second, CPU seconds per million events.")
final class NexmarkBench implements Callable<Integer> {
  @Option(names = {"-q", "--query"}, split = ",", defaultValue = "q0,q1,q2,q5,q7,q11,count,keyed-window",
      description = "queries, comma separated, or all (default ${DEFAULT-VALUE})")
  List<String> queries;

  @Option(names = {"-n", "--events"}, defaultValue = "5000000",
      description = "Nexmark events per run, of all kinds (count, keyed-window: records) (default ${DEFAULT-VALUE})")
  long events;

  @Option(names = {"-p", "--parallelism"}, defaultValue = "1", description = "job parallelism (default ${DEFAULT-VALUE})")
  int parallelism;

  @Option(names = "--state", split = ",", defaultValue = "heap,forst",
      description = "state backends, comma separated: every query runs on each (default ${DEFAULT-VALUE})")
  List<String> stateBackends;

  @Option(names = "--warmup", defaultValue = "1000000", description = "events in an unmeasured first run (default ${DEFAULT-VALUE})")
  long warmup;

  @Option(names = "--keys", defaultValue = "10000",
      description = "keyed-window: keys of its records (default ${DEFAULT-VALUE})")
  long keys;

  @Option(names = "--window", defaultValue = "10s",
      description = "keyed-window: size of its tumbling windows, e.g. 1h (default ${DEFAULT-VALUE}); open windows are"
          + " about keys × (1 - e^(-window ms / keys)). With another shape than the default the plain loop is not run")
  String window;

  private NexmarkQueries.Shape shape() {
    return new NexmarkQueries.Shape(keys, window);
  }

  @Override
  public Integer call() throws Exception {
    List<String> names = BenchQueries.expand(queries); // unknown names fail before anything runs
    warmUp(names);
    printHeader();
    Map<String, GeneratedInput.Cost> generation = new LinkedHashMap<>();
    List<WindowRun> windowRuns = new ArrayList<>();
    for (String state : stateBackends) {
      for (String q : names) {
        String spec = BenchQueries.spec(q, events, parallelism, state, shape());
        GeneratedInput.Cost gen = generation.computeIfAbsent(GeneratedInput.describe(spec),
            d -> GeneratedInput.cost(spec));
        QueryRun.Figures f = QueryRun.run(spec, 0);
        printQuery(q, state, f, gen);
        if (BenchQueries.WINDOW_QUERIES.contains(q) && shape().equals(NexmarkQueries.Shape.DEFAULT)) {
          windowRuns.add(new WindowRun(q, state, f, gen));
        }
      }
    }
    generation.forEach((input, cost) -> System.out.printf("%-22s %,12.0f %8.2f %8.2f %9.2f %11s %8s %,12d   generating %s alone%n",
        "gen", cost.records() / cost.wallSeconds(), cost.wallSeconds(), cost.cpuSeconds(), cost.cpuPerMillion(), "",
        "", cost.records(), input));
    Map<String, PlainLoop.Result> loops = new LinkedHashMap<>();
    for (WindowRun run : windowRuns) {
      if (!loops.containsKey(run.query())) {
        printLoop(run.query(), loops.computeIfAbsent(run.query(),
            q -> PlainLoop.keyedTumbling(GeneratedInput.columns(q, events))));
      }
      compareWithLoop(run, loops.get(run.query()));
    }
    return 0;
  }

  /** A run of a window query, to compare with the plain loop. */
  private record WindowRun(String query, String state, QueryRun.Figures figures, GeneratedInput.Cost gen) {}

  private void warmUp(List<String> names) throws InterruptedException {
    if (warmup <= 0) {
      return;
    }
    long n = Math.min(warmup, events);
    for (String state : stateBackends) {
      for (String q : names) {
        String spec = BenchQueries.spec(q, n, parallelism, state, shape());
        QueryRun.run(spec, 0);
        GeneratedInput.cost(spec);
        if (BenchQueries.WINDOW_QUERIES.contains(q) && shape().equals(NexmarkQueries.Shape.DEFAULT)) {
          PlainLoop.keyedTumbling(GeneratedInput.columns(q, n));
        }
      }
    }
  }

  private void printHeader() {
    System.out.printf("nexmark: %,d events per run, parallelism %d, state %s, %d cores, load average %.2f,"
            + " max heap %,d MiB, keyed-window %,d keys, %s windows%n",
        events, parallelism, String.join(" and ", stateBackends), Runtime.getRuntime().availableProcessors(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Runtime.getRuntime().maxMemory() >> 20,
        keys, window);
    System.out.println("""
        A query line is the whole job from its start to its end: its sources generating the events (each Nexmark
        table the events of its kind among the stream's first N), exchanges, operators, sinks. events/s = events its
        sources read per wall second; CPU = process CPU seconds of this JVM meanwhile (every thread, GC and JIT
        included); CPU-s/M = CPU seconds per million events read (= CPU microseconds per event); net = CPU-s/M less
        that of generating the same events alone (the "gen" lines: the source connectors outside a job, one split);
        heap MiB = the most heap held right after a garbage collection during the run (the live heap it needed).""");
    System.out.printf("%-22s %12s %8s %8s %9s %11s %8s %12s%n",
        "query", "events/s", "wall s", "CPU s", "CPU-s/M", "net CPU-s/M", "heap MiB", "results");
  }

  private static void printQuery(String q, String state, QueryRun.Figures f, GeneratedInput.Cost gen) {
    double perMillion = f.cpuSeconds() * 1e6 / gen.records();
    System.out.printf("%-22s %,12.0f %8.2f %8.2f %9.2f %11.2f %,8d %,12d%n", q + " " + state,
        gen.records() / f.wallSeconds(), f.wallSeconds(), f.cpuSeconds(), perMillion, perMillion - gen.cpuPerMillion(),
        f.heapAfterGcBytes() >> 20, f.results());
    if (f.caches() != null) {
      System.out.printf("%-22s %s%n", "", f.caches());
    }
  }

  /** The plain loop's figures: the same work on the same records, generated beforehand. */
  private static void printLoop(String query, PlainLoop.Result loop) {
    System.out.printf("%-22s %,12.0f %8.2f %8.2f %9.2f %11.2f %8s %,12d   plain Java loop, the same work on the same records"
            + " generated beforehand (not timed)%n", "loop " + query, loop.eventsPerSecond(), loop.seconds(),
        loop.cpuSeconds(), loop.cpuPerMillion(), loop.cpuPerMillion(), "", loop.windowResults());
  }

  /** The query's cost against the plain loop's. */
  private void compareWithLoop(WindowRun run, PlainLoop.Result loop) {
    QueryRun.Figures f = run.figures();
    double net = f.cpuSeconds() * 1e6 / events - run.gen().cpuPerMillion();
    String name = run.query() + " " + run.state();
    System.out.printf("ratio %-16s tributary net CPU-s/M / loop CPU-s/M = %.1f; events/s: tributary (generating) %,.0f,"
        + " loop (not generating) %,.0f%n", name, net / loop.cpuPerMillion(), events / f.wallSeconds(), loop.eventsPerSecond());
    if (loop.windowResults() != f.results()) {
      System.out.printf("warning: %s: the loop made %,d results, the query %,d%n", name, loop.windowResults(), f.results());
    }
  }
}
