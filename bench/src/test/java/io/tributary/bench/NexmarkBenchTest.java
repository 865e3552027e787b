package io.tributary.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connectors.nexmark.NexmarkKind;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code bench nexmark}: its queries are the SQL examples, its inputs their share of the stream, its lines. */
class NexmarkBenchTest {
  @Test
  void theSqlQueriesAreExactlyTheExamples() throws Exception {
    try (Stream<Path> files = Files.list(Path.of("../examples/nexmark"))) {
      List<String> examples = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".sql"))
          .map(f -> f.replace(".sql", "")).toList();
      assertThat(NexmarkSql.NAMES).containsExactlyInAnyOrderElementsOf(examples);
    }
    assertThat(BenchQueries.expand(List.of("all", "q5"))).startsWith("q0", "q1").endsWith("count", "keyed-window", "keyed-sliding")
        .doesNotHaveDuplicates().hasSize(NexmarkSql.NAMES.size() + 3);
    assertThatThrownBy(() -> BenchQueries.expand(List.of("q6"))).hasMessageContaining("unknown query 'q6'");
  }

  @Test
  void eachTableReadsItsKindsShareOfTheStream() {
    assertThat(NexmarkSql.eventsOf(NexmarkKind.PERSON, 1_000_000)).isEqualTo(20_000);
    assertThat(NexmarkSql.eventsOf(NexmarkKind.AUCTION, 1_000_000)).isEqualTo(60_000);
    assertThat(NexmarkSql.eventsOf(NexmarkKind.BID, 1_000_000)).isEqualTo(920_000);
    // events 0..6 of the stream: a person, three auctions, three bids
    assertThat(NexmarkSql.eventsOf(NexmarkKind.PERSON, 7)).isEqualTo(1);
    assertThat(NexmarkSql.eventsOf(NexmarkKind.AUCTION, 7)).isEqualTo(3);
    assertThat(NexmarkSql.eventsOf(NexmarkKind.BID, 7)).isEqualTo(3);

    JobSpec q8 = JobSpecs.parse(BenchQueries.spec("q8", 5_000, 3, "heap"));
    assertThat(q8.name()).isEqualTo("nexmark-q8");
    assertThat(q8.state().backend()).isEqualTo("heap");
    assertThat(q8.sources().get("person").properties()).containsEntry("events", 100L);
    assertThat(q8.sources().get("auction").properties()).containsEntry("events", 300L);
    assertThat(GeneratedInput.describe(BenchQueries.spec("q8", 5_000, 3, "heap")))
        .isEqualTo("nexmark person 100 + nexmark auction 300");
  }

  @Test
  void everyQueryPrintsALinePerStateBackendWithItsResults() {
    String out = run("nexmark", "--query", "q7,q8", "--events", "50000", "--state", "heap,forst", "--warmup", "0");

    for (String line : List.of("q7 heap", "q7 forst", "q8 heap", "q8 forst")) {
      assertThat(out).containsPattern("(?m)^" + line + " +[0-9,]+ .* [1-9][0-9,]*$");
    }
    assertThat(out).contains("generating nexmark bid 46,000 alone")
        .contains("generating nexmark person 1,000 + nexmark auction 3,000 alone");
  }

  @Test
  void eachBenchmarkHasItsHelpAndAMistypedOptionIsOneLine() {
    assertThat(run("nexmark", "--help")).contains("Usage: tributary bench nexmark").contains("--events");
    PrintStream original = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertThat(BenchCommand.execute()).isEqualTo(2);
      assertThat(BenchCommand.execute("nexmark", "--querry", "q5")).isEqualTo(2);
    } finally {
      System.setErr(original);
    }
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).strip().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith("tributary: name a benchmark, for example: ");
    assertThat(lines.get(1)).startsWith("tributary: Unknown options: '--querry', 'q5'")
        .contains("did you mean --query?").endsWith("(see 'tributary bench nexmark --help')");
  }

  private static String run(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertThat(BenchCommand.execute(args)).isZero();
    } finally {
      System.setOut(original);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
