package io.tributary.bench.flink;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench flink}: the same queries on Tributary and on Apache Flink, over the same
 * records, side by side in one run. Every run is a JVM of its own (Tributary's on the bench
 * module's classpath, Flink's on this module's: their RocksDB libraries cannot share one), with a
 * warm-up run before the measured one; the engines take turns, and medians are reported with the
 * ratio of events per CPU-second, Tributary to Flink.
 */
@Command(name = "tributary bench flink", mixinStandardHelpOptions = true,
    description = "Tributary and Apache Flink on the same queries and records: events/s, CPU-s per million events.")
public final class FlinkBench implements Callable<Integer> {
  /** The system property that holds the bench module's classpath (bin/tributary sets it). */
  static final String TRIBUTARY_CLASSPATH = "tributary.bench.classpath";

  @Option(names = {"-q", "--query"}, split = ",", defaultValue = "keyed-window,count",
      description = "queries, comma separated, of ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})",
      completionCandidates = QueryNames.class)
  List<String> queries;

  @Option(names = {"-n", "--events"}, defaultValue = "5000000", description = "input records per run (default ${DEFAULT-VALUE})")
  long events;

  @Option(names = {"-p", "--parallelism"}, defaultValue = "1", description = "job parallelism (default ${DEFAULT-VALUE})")
  int parallelism;

  @Option(names = "--state", defaultValue = "heap",
      description = "heap (Tributary heap, Flink hashmap), rocksdb or forst (Tributary forst, Flink's backend of that"
          + " name) (default ${DEFAULT-VALUE})")
  String state;

  @Option(names = "--checkpoint-interval", defaultValue = "0",
      description = "checkpoint interval, e.g. 5s, 500ms; 0: none (default ${DEFAULT-VALUE})")
  String checkpointInterval;

  @Option(names = "--repeat", defaultValue = "3", description = "measured runs per engine, interleaved (default ${DEFAULT-VALUE})")
  int repeat;

  @Option(names = "--warmup", defaultValue = "1000000",
      description = "records of the unmeasured run before each measured one, in the same JVM (default ${DEFAULT-VALUE})")
  long warmup;

  /** The queries both engines run. */
  static final class QueryNames extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    QueryNames() {
      super(FlinkQueries.NAMES);
    }
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new FlinkBench());
    cli.setExecutionExceptionHandler((ex, line, parsed) -> {
      line.getErr().println("tributary: " + ex.getMessage());
      return 1;
    });
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Engines engines = new Engines(tributaryClasspath(), System.getProperty("java.class.path"), jvmOptions(),
        Engines.flinkState(state), Engines.tributaryState(state), millis(checkpointInterval), parallelism, warmup);
    for (String q : queries) {
      if (!FlinkQueries.NAMES.contains(q)) {
        throw new IllegalArgumentException("unknown query '" + q + "'; known: " + FlinkQueries.NAMES);
      }
    }
    printHeader(engines);
    boolean allEqual = true;
    for (String q : queries) {
      allEqual &= compare(engines, q);
    }
    return allEqual ? 0 : 3;
  }

  /** Runs query {@code q} on both engines {@link #repeat} times, taking turns, and prints the figures. */
  private boolean compare(Engines engines, String q) throws Exception {
    Child.Figures gen = engines.generate(q, events);
    List<Child.Figures> tributary = new ArrayList<>();
    List<Child.Figures> flink = new ArrayList<>();
    for (int r = 0; r < repeat; r++) {
      boolean tributaryFirst = r % 2 == 0;
      for (int turn = 0; turn < 2; turn++) {
        boolean isTributary = (turn == 0) == tributaryFirst;
        Child.Figures f = isTributary ? engines.tributary(q, events) : engines.flink(q, events);
        (isTributary ? tributary : flink).add(f);
        Report.run(q, isTributary ? "tributary" : "flink", r + 1, events, f);
      }
    }
    return Report.summary(q, events, gen, tributary, flink);
  }

  private void printHeader(Engines engines) {
    System.out.printf(Locale.ROOT, "bench flink: %s, %,d records per run, parallelism %d, state %s (Tributary %s,"
            + " Flink %s%s), checkpoints %s, %d runs per engine, %d cores, load average %.2f%n",
        String.join(",", queries), events, parallelism, state, engines.tributaryState(), engines.flinkState(),
        engines.flinkState().equals("forst") ? " with asynchronous state" : "",
        engines.checkpointMillis() == 0 ? "none" : "every " + checkpointInterval, repeat,
        Runtime.getRuntime().availableProcessors(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    System.out.printf(Locale.ROOT, """
        Each run is a JVM of its own (%s): an unmeasured warm-up run of %,d records, then the measured run, from
        the job's start (Tributary) or submission to a running MiniCluster (Flink) to its end. CPU = process CPU
        seconds of that JVM meanwhile; CPU-s/M = CPU seconds per million input records. Both engines read the records
        Tributary's generators make, which costs the "gen" line's CPU-s/M of each run; "net" leaves it out.
        Flink: DataStream API, default settings (watermarks every 200 ms, no object reuse) but those named here.
        %n""", String.join(" ", engines.jvmOptions()), warmup);
  }

  private static String tributaryClasspath() {
    String cp = System.getProperty(TRIBUTARY_CLASSPATH);
    if (cp == null || cp.isBlank()) {
      throw new IllegalStateException("-D" + TRIBUTARY_CLASSPATH + " (the bench module's jar and classpath) is not set;"
          + " run this through bin/tributary bench flink");
    }
    return cp;
  }

  /** The children's heap and other options: {@code TRIBUTARY_JAVA_OPTS}, else {@code -Xmx2g}. */
  private static List<String> jvmOptions() {
    String opts = System.getenv("TRIBUTARY_JAVA_OPTS");
    return opts == null || opts.isBlank() ? List.of("-Xmx2g") : Arrays.asList(opts.trim().split("\\s+"));
  }

  /** {@code 5s}, {@code 500ms}, {@code 1m} or a number of milliseconds. */
  static long millis(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.endsWith("ms")) {
      return Long.parseLong(t.substring(0, t.length() - 2));
    }
    if (t.endsWith("s")) {
      return Long.parseLong(t.substring(0, t.length() - 1)) * 1000;
    }
    if (t.endsWith("m")) {
      return Long.parseLong(t.substring(0, t.length() - 1)) * 60_000;
    }
    return Long.parseLong(t);
  }
}
