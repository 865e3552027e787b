package io.tributary.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The queries {@code bench nexmark} runs: the Nexmark queries in SQL ({@link NexmarkSql}, the
 * suite's own queries as {@code examples/nexmark/} has them) and the two window workloads of
 * {@link NexmarkQueries}, {@code count} and {@code keyed-window}, that a plain loop can do too, and
 * {@code keyed-sliding}.
 */
final class BenchQueries {
  /** The queries that are job specs of {@link NexmarkQueries}, not SQL, with a plain loop to compare with. */
  static final List<String> WINDOW_QUERIES = List.of("count", "keyed-window");
  /** Window queries of {@link NexmarkQueries} without a plain loop to compare with. */
  static final List<String> OTHER_QUERIES = List.of("keyed-sliding");
  /** The name that stands for every query. */
  static final String ALL = "all";

  private BenchQueries() {}

  /** {@code names} with {@link #ALL} expanded; an unknown name fails. */
  static List<String> expand(List<String> names) {
    List<String> out = new ArrayList<>();
    for (String name : names) {
      List<String> these = name.equals(ALL) ? all() : List.of(name);
      for (String q : these) {
        if (!NexmarkSql.NAMES.contains(q) && !WINDOW_QUERIES.contains(q) && !OTHER_QUERIES.contains(q)) {
          throw new IllegalArgumentException("unknown query '" + q + "'; known: " + all() + " or " + ALL);
        }
        if (!out.contains(q)) {
          out.add(q);
        }
      }
    }
    return out;
  }

  /** Every query, the SQL ones first. */
  static List<String> all() {
    List<String> all = new ArrayList<>(NexmarkSql.NAMES);
    all.addAll(WINDOW_QUERIES);
    all.addAll(OTHER_QUERIES);
    return all;
  }

  /**
   * The job spec of query {@code name} over {@code events} input events: for a Nexmark query, the
   * stream's first {@code events} events (each table reading its kind's share); for a window
   * query, {@code events} records of its one source.
   */
  static String spec(String name, long events, int parallelism, String stateBackend) {
    return spec(name, events, parallelism, stateBackend, NexmarkQueries.Shape.DEFAULT);
  }

  /** The same, {@code keyed-window} of the given shape. */
  static String spec(String name, long events, int parallelism, String stateBackend, NexmarkQueries.Shape shape) {
    return WINDOW_QUERIES.contains(name) || OTHER_QUERIES.contains(name) ? NexmarkQueries.spec(name, events, parallelism, stateBackend, shape)
        : NexmarkSql.spec(name, events, parallelism, stateBackend);
  }
}
