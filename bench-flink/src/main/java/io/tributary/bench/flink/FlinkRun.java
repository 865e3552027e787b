package io.tributary.bench.flink;

import com.sun.management.OperatingSystemMXBean;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.stream.Record;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One measured run of a query on Flink, in a JVM of its own ({@link #main}): a MiniCluster with one
 * task manager of P slots is started (not measured), an unmeasured warm-up job runs, then the
 * measured job: from its submission to its end, wall time and the process CPU time of this JVM, and
 * the records its sink took. Checkpoints, when asked for, go to a temporary directory deleted
 * afterwards.
 */
final class FlinkRun {
  private FlinkRun() {}

  /** What to run. {@code state}: Flink's backend, {@code hashmap}, {@code rocksdb} or {@code forst}. */
  record Settings(String query, long events, int parallelism, String state, long checkpointMillis) {}

  /** What a run measured. */
  record Figures(double wallSeconds, double cpuSeconds, long results) {}

  /**
   * Prints one line {@code result wall=<s> cpu=<s> results=<n>}. Arguments: {@code flink} QUERY
   * EVENTS PARALLELISM STATE CHECKPOINT_MILLIS WARMUP_EVENTS, or {@code generate} QUERY EVENTS
   * WARMUP_EVENTS (generating the query's records alone, with Tributary's connector, one split).
   */
  public static void main(String[] args) throws Exception {
    Figures f;
    if (args.length == 4 && args[0].equals("generate")) {
      long warmup = Long.parseLong(args[3]);
      if (warmup > 0) {
        generate(args[1], warmup);
      }
      f = generate(args[1], Long.parseLong(args[2]));
    } else if (args.length == 7 && args[0].equals("flink")) {
      Settings s = new Settings(args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]), args[4],
          Long.parseLong(args[5]));
      f = run(s, Long.parseLong(args[6]));
    } else {
      System.err.println("usage: FlinkRun flink QUERY EVENTS PARALLELISM STATE CHECKPOINT_MILLIS WARMUP_EVENTS"
          + " | generate QUERY EVENTS WARMUP_EVENTS");
      System.exit(2);
      return;
    }
    System.out.printf("result wall=%.6f cpu=%.6f results=%d%n", f.wallSeconds(), f.cpuSeconds(), f.results());
    System.exit(0);
  }

  /** Starts a MiniCluster, runs {@code warmup} records unmeasured (if any), then the measured run. */
  static Figures run(Settings s, long warmup) throws Exception {
    Path dir = Files.createTempDirectory("tributary-bench-flink-");
    try {
      Configuration conf = configuration(s, dir);
      MiniClusterConfiguration mc = new MiniClusterConfiguration.Builder().setConfiguration(conf)
          .setNumTaskManagers(1).setNumSlotsPerTaskManager(s.parallelism()).build();
      try (MiniCluster cluster = new MiniCluster(mc)) {
        cluster.start();
        if (warmup > 0) {
          execute(cluster, conf, new Settings(s.query(), warmup, s.parallelism(), s.state(), s.checkpointMillis()));
        }
        System.gc();
        return execute(cluster, conf, s);
      }
    } finally {
      deleteTree(dir);
    }
  }

  /** The cluster's and the job's configuration: state backend, slots, checkpoints. */
  static Configuration configuration(Settings s, Path dir) {
    Configuration conf = new Configuration();
    conf.set(StateBackendOptions.STATE_BACKEND, s.state());
    conf.set(TaskManagerOptions.NUM_TASK_SLOTS, s.parallelism());
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.resolve("checkpoints").toUri().toString());
    if (s.checkpointMillis() > 0) {
      conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(s.checkpointMillis()));
      // Tributary's forst checkpoints are incremental; so are Flink's RocksDB and ForSt ones here
      conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, !s.state().equals("hashmap"));
    }
    return conf;
  }

  private static Figures execute(MiniCluster cluster, Configuration conf, Settings s) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(s.parallelism());
    FlinkQueries.add(env, s.query(), s.events(), s.state().equals("forst"));
    JobGraph job = env.getStreamGraph().getJobGraph();
    CountingSink.reset();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    cluster.executeJobBlocking(job);
    long t1 = System.nanoTime();
    long cpu1 = os.getProcessCpuTime();
    return new Figures((t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9, CountingSink.count());
  }

  /** Generates the query's {@code events} records with Tributary's connector (one split) and drops them. */
  static Figures generate(String query, long events) {
    SourceConnector source = (query.startsWith("keyed-") ? Input.records(events) : Input.bids(events)).connector();
    long[] fields = new long[1];
    SplitOutput out = new SplitOutput() {
      @Override
      public void record(Record record) {
        fields[0] += record.values().length;
      }

      @Override
      public void malformed(String raw, String reason) {
        throw new IllegalStateException(reason);
      }
    };
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    long n = 0;
    try (SplitReader reader = source.open(source.splits(1).get(0))) {
      for (int read = reader.read(out, 1024); read != SplitReader.END; read = reader.read(out, 1024)) {
        n += read;
      }
    }
    return new Figures((System.nanoTime() - t0) / 1e9, (os.getProcessCpuTime() - cpu0) / 1e9, n);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
