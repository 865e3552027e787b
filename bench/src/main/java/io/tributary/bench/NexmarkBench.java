package io.tributary.bench;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench nexmark}: runs queries over a bounded stream of generated records and
 * prints, per query, events per second, wall and CPU seconds and CPU seconds per million events;
 * then what generating the same records alone costs (every query line includes it), and a plain
 * single-threaded loop that does the window queries' work on records generated beforehand.
 */
@Command(name = "nexmark", description = "Nexmark queries and keyed-window: events per second, CPU seconds per million events.")
final class NexmarkBench implements Callable<Integer> {
  private static final List<String> WINDOW_QUERIES = List.of("count", "keyed-window");

  @Option(names = {"-q", "--query"}, split = ",", defaultValue = "q0,q1,q2,q5,q7,q11,count,keyed-window",
      description = "queries, comma separated (default ${DEFAULT-VALUE})")
  List<String> queries;

  @Option(names = {"-n", "--events"}, defaultValue = "5000000", description = "input records per run (default ${DEFAULT-VALUE})")
  long events;

  @Option(names = {"-p", "--parallelism"}, defaultValue = "1", description = "job parallelism (default ${DEFAULT-VALUE})")
  int parallelism;

  @Option(names = "--state", defaultValue = "forst", description = "state backend (default ${DEFAULT-VALUE})")
  String stateBackend;

  @Option(names = "--warmup", defaultValue = "1000000", description = "records in an unmeasured first run (default ${DEFAULT-VALUE})")
  long warmup;

  @Override
  public Integer call() throws Exception {
    queries.forEach(NexmarkQueries::input); // unknown names fail before anything runs
    warmUp();
    printHeader();
    Map<String, QueryRun.Figures> figures = new LinkedHashMap<>();
    Map<NexmarkQueries.Input, GeneratedInput.Cost> generation = new LinkedHashMap<>();
    for (String q : queries) {
      figures.put(q, QueryRun.run(settings(q, events)));
      generation.computeIfAbsent(NexmarkQueries.input(q), i -> GeneratedInput.cost(q, events));
      printQuery(q, figures.get(q), generation.get(NexmarkQueries.input(q)));
    }
    generation.forEach((input, cost) -> System.out.printf("%-18s %,12.0f %8.2f %8.2f %9.2f %11s %,12d   generating the %s alone%n",
        "gen " + input.name().toLowerCase(), cost.records() / cost.wallSeconds(), cost.wallSeconds(),
        cost.cpuSeconds(), cost.cpuPerMillion(), "", cost.records(), input.name().toLowerCase()));
    for (String q : queries) {
      if (WINDOW_QUERIES.contains(q)) {
        compareWithLoop(q, figures.get(q), generation.get(NexmarkQueries.input(q)));
      }
    }
    return 0;
  }

  private QueryRun.Settings settings(String query, long n) {
    return new QueryRun.Settings(query, n, parallelism, stateBackend, 0);
  }

  private void warmUp() throws InterruptedException {
    if (warmup <= 0) {
      return;
    }
    long n = Math.min(warmup, events);
    for (String q : queries) {
      QueryRun.run(settings(q, n));
      GeneratedInput.cost(q, n);
      if (WINDOW_QUERIES.contains(q)) {
        PlainLoop.keyedTumbling(GeneratedInput.columns(q, n));
      }
    }
  }

  private void printHeader() {
    System.out.printf("nexmark: %,d records per run, parallelism %d, %s state, %d cores, load average %.2f%n",
        events, parallelism, stateBackend, Runtime.getRuntime().availableProcessors(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    System.out.println("""
        A query line is the whole job from its start to its end: its source generating the records, exchanges,
        operators, sink. CPU = process CPU seconds of this JVM meanwhile (every thread, GC and JIT included);
        CPU-s/M = CPU seconds per million input records; net = CPU-s/M less that of generating the same records
        alone (the "gen" lines: the source connector outside a job, one split).""");
    System.out.printf("%-18s %12s %8s %8s %9s %11s %12s%n",
        "query", "events/s", "wall s", "CPU s", "CPU-s/M", "net CPU-s/M", "results");
  }

  private void printQuery(String q, QueryRun.Figures f, GeneratedInput.Cost gen) {
    double perMillion = f.cpuSeconds() * 1e6 / events;
    System.out.printf("%-18s %,12.0f %8.2f %8.2f %9.2f %11.2f %,12d%n", q, events / f.wallSeconds(),
        f.wallSeconds(), f.cpuSeconds(), perMillion, perMillion - gen.cpuPerMillion(), f.results());
  }

  /** The plain loop over the same records, generated beforehand, and the query's cost against it. */
  private void compareWithLoop(String q, QueryRun.Figures f, GeneratedInput.Cost gen) {
    PlainLoop.Result loop = PlainLoop.keyedTumbling(GeneratedInput.columns(q, events));
    System.out.printf("%-18s %,12.0f %8.2f %8.2f %9.2f %11.2f %,12d   plain Java loop, the same work on the same records"
            + " generated beforehand (not timed)%n", "loop " + q, loop.eventsPerSecond(), loop.seconds(),
        loop.cpuSeconds(), loop.cpuPerMillion(), loop.cpuPerMillion(), loop.windowResults());
    double net = f.cpuSeconds() * 1e6 / events - gen.cpuPerMillion();
    System.out.printf("ratio %-12s tributary net CPU-s/M / loop CPU-s/M = %.1f; events/s: tributary (generating) %,.0f,"
        + " loop (not generating) %,.0f%n", q, net / loop.cpuPerMillion(), events / f.wallSeconds(), loop.eventsPerSecond());
    if (loop.windowResults() != f.results()) {
      System.out.printf("warning: %s: the loop made %,d results, the query %,d%n", q, loop.windowResults(), f.results());
    }
  }
}
