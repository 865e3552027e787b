package io.tributary.run;

import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.spec.sql.SqlJobs;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden results from a real SQL engine: every Nexmark query of {@code examples/nexmark}, run by
 * Tributary over events read from files (in an arrival order up to 3 s behind event time, inside
 * the watermark bound), is stopped with a savepoint in the middle and resumed at another
 * parallelism, and what its sink committed must be exactly what the query's batch equivalent
 * computes in DuckDB over the same events — for the updating queries (an unbounded GROUP BY), the
 * final value per key.
 */
class NexmarkGoldenIT {
  /**
   * The queries whose sink takes an upsert stream: the columns of their key, and what makes a
   * key's final record the greatest (the count of an aggregate's records; for a top-N, the order it
   * ranks by, since a rank is held by ever better rows; nothing for an average: then the order the
   * lines were committed in).
   */
  private static final Map<String, GoldenRows.Upsert> UPSERTS = Map.of(
      "q15", new GoldenRows.Upsert(List.of("day"), GoldenRows.by("total_bids")),
      "q16", new GoldenRows.Upsert(List.of("channel", "day"), GoldenRows.by("total_bids")),
      "q17", new GoldenRows.Upsert(List.of("auction", "day"), GoldenRows.by("total_bids")),
      "q18", new GoldenRows.Upsert(List.of("bidder", "auction"), GoldenRows.by("dateTime")),
      "q19", new GoldenRows.Upsert(List.of("auction", "rank_number"), GoldenRows.by("price")
          .thenComparing(GoldenRows.by("bidder").reversed()).thenComparing(GoldenRows.by("dateTime").reversed())),
      "q4", new GoldenRows.Upsert(List.of("id"), null),
      "q9", new GoldenRows.Upsert(List.of("id"), GoldenRows.by("price")
          .thenComparing(GoldenRows.by("bid_dateTime").reversed()).thenComparing(GoldenRows.by("bidder").reversed())));
  /** Bids read per second; the other kinds in proportion, so that event time advances alike in all. */
  private static final int BIDS_PER_SECOND = 2_300;

  @TempDir
  static Path input;
  private static DuckDb duck;

  @TempDir
  Path tmp;

  @BeforeAll
  static void writeInput() throws Exception {
    NexmarkGoldenInput.write(input);
    duck = new DuckDb(input);
  }

  @AfterAll
  static void close() throws Exception {
    duck.close();
  }

  /**
   * Two runs of every query of {@code examples/nexmark}, or of those named in the system property
   * {@code golden.queries} (comma-separated, e.g. {@code q5,q7}).
   */
  static Stream<Arguments> runs() throws Exception {
    List<Arguments> runs = new ArrayList<>();
    String only = System.getProperty("golden.queries", "");
    try (Stream<Path> files = Files.list(Path.of("../examples/nexmark"))) {
      for (String q : files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".sql"))
          .map(f -> f.replace(".sql", "")).filter(q -> only.isBlank() || List.of(only.split(",")).contains(q))
          .sorted().toList()) {
        runs.add(Arguments.of(q, 1, 3, "heap"));
        runs.add(Arguments.of(q, 3, 1, "forst"));
      }
    }
    return runs.stream();
  }

  @Timeout(180)
  @ParameterizedTest(name = "{0}, parallelism {1} -> {2}, {3}")
  @MethodSource("runs")
  void whatTributaryCommitsIsWhatDuckDbComputes(String query, int before, int after, String backend)
      throws Exception {
    Path out = tmp.resolve("out");
    String spec = SqlJobs.compile(overFiles(query, out, backend), query).specJson();

    String savepoint = SavepointRuns.runUntilSavepoint(tmp, spec, out, before);
    int committedBefore = committed(out).size();
    RunEvents events = new RunEvents();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec, after), 100, RestorePolicy.parse(savepoint),
            ConnectorFactory.standard(), events)) {
      runner.run();
    }

    List<String> expected = GoldenRows.canonical(duck.query(golden(query)));
    GoldenRows.Upsert upsert = UPSERTS.get(query);
    List<String> actual = GoldenRows.fromSink(upsert != null && upsert.later() == null
        ? GoldenRows.inCommitOrder(out) : committed(out), upsert);
    assertThat(events.timeline()).contains("restoring from savepoint");
    assertThat(expected).as("the query has results over the golden input").isNotEmpty();
    assertThat(actual).as("%s: Tributary's committed rows against DuckDB's", query)
        .containsExactlyInAnyOrderElementsOf(expected);
    assertThat(committedBefore).as("the savepoint was taken before the job's end").isLessThan(committed(out).size());
  }

  /**
   * The query's text with its Nexmark tables read from the golden input's files (throttled, so that
   * the savepoint falls in the middle) and its sink a file sink writing a changelog.
   */
  private static String overFiles(String query, Path out, String backend) throws Exception {
    String sql = Files.readString(Path.of("../examples/nexmark", query + ".sql"), StandardCharsets.UTF_8);
    Matcher m = java.util.regex.Pattern
        .compile("WITH \\('connector' = 'nexmark', 'kind' = '(\\w+)', 'events' = '\\d+'\\)").matcher(sql);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      String kind = m.group(1);
      long rate = Math.max(1, BIDS_PER_SECOND * (kind.equals("bid") ? 46 : kind.equals("auction") ? 3 : 1) / 46);
      m.appendReplacement(b, Matcher.quoteReplacement("WITH ('connector' = 'file', 'path' = '"
          + input.resolve(kind + ".jsonl") + "', 'maxRecordsPerSecond' = '" + rate + "')"));
    }
    m.appendTail(b);
    String sink = "WITH ('connector' = 'file', 'path' = '" + out + "', 'changelog' = 'true')";
    return "SET 'state.backend' = '" + backend + "';\n" + b.toString().replace("WITH ('connector' = 'blackhole')", sink);
  }

  private static String golden(String query) throws Exception {
    try (var in = NexmarkGoldenIT.class.getResourceAsStream("/nexmark-golden/" + query + ".sql")) {
      assertThat(in).as("the batch equivalent of " + query).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
