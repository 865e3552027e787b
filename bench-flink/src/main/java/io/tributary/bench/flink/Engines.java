package io.tributary.bench.flink;

import java.util.ArrayList;
import java.util.List;

/**
 * How {@link FlinkBench} starts a run of each engine: Tributary's with the bench module's {@code
 * io.tributary.bench.QueryRun} on that module's classpath, Flink's with {@link FlinkRun} on this
 * module's; both with the same JVM options, parallelism, checkpoint interval and warm-up.
 */
record Engines(String tributaryClasspath, String flinkClasspath, List<String> jvmOptions, String flinkState,
    String tributaryState, long checkpointMillis, int parallelism, long warmup) {
  private static final String TRIBUTARY_MAIN = "io.tributary.bench.QueryRun";

  /** Flink's backend for a {@code --state}: heap is {@code hashmap}. */
  static String flinkState(String state) {
    return switch (state) {
      case "heap" -> "hashmap";
      case "rocksdb", "forst" -> state;
      default -> throw new IllegalArgumentException("--state must be heap, rocksdb or forst, not '" + state + "'");
    };
  }

  /** Tributary's backend for a {@code --state}: RocksDB is forst. */
  static String tributaryState(String state) {
    return state.equals("heap") ? "heap" : "forst";
  }

  Child.Figures tributary(String query, long events) throws Exception {
    return Child.run(jvmOptions, tributaryClasspath, TRIBUTARY_MAIN, List.of(query, Long.toString(events),
        Integer.toString(parallelism), tributaryState, Long.toString(checkpointMillis), Long.toString(warmup)));
  }

  Child.Figures flink(String query, long events) throws Exception {
    return Child.run(flinkOptions(), flinkClasspath, FlinkRun.class.getName(), List.of("flink", query,
        Long.toString(events), Integer.toString(parallelism), flinkState, Long.toString(checkpointMillis),
        Long.toString(warmup)));
  }

  /** Generating the query's records alone, as both engines' sources do. */
  Child.Figures generate(String query, long events) throws Exception {
    return Child.run(flinkOptions(), flinkClasspath, FlinkRun.class.getName(),
        List.of("generate", query, Long.toString(events), Long.toString(warmup)));
  }

  private List<String> flinkOptions() {
    List<String> options = new ArrayList<>(jvmOptions);
    options.addAll(Child.FLINK_JVM_OPTIONS);
    return options;
  }
}
