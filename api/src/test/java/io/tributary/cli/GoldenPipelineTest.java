package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Golden end-to-end pipelines (see {@code docs/design.md}, "Tests and benchmarks"): each job under {@code pipelines/} runs in-process at
 * several parallelisms and its committed output must equal the golden files exactly — the same
 * file gives the same results, late records and dead letters at any parallelism.
 *
 * <p>To regenerate after an intended change: run with {@code -Dgolden.update=true}, then review
 * the diff of {@code src/test/resources/pipelines}. A job reads {@code input.jsonl} as
 * {@code ${input}}, or its own input files as {@code ${input:NAME}} ({@code NAME.jsonl}).
 */
class GoldenPipelineTest {
  @TempDir
  Path tmp;

  @ParameterizedTest(name = "{0} at parallelism {1}, {3} state")
  @CsvSource({
      "clicks, 1, results late bad, heap",
      "clicks, 2, results late bad, heap",
      "clicks, 4, results late bad, heap",
      "sessions, 1, sliding sessions, heap",
      "sessions, 3, sliding sessions, heap",
      "clicks, 1, results late bad, forst",
      "clicks, 3, results late bad, forst",
      "sessions, 1, sliding sessions, forst",
      "sessions, 2, sliding sessions, forst",
      "union, 1, bids totals, heap",
      "union, 3, bids totals, forst",
      "joins, 1, over-reserve newcomers sellers near-auction, heap",
      "joins, 4, over-reserve newcomers sellers near-auction, heap",
      "joins, 3, over-reserve newcomers sellers near-auction, forst",
      "aggregates, 1, per-auction cheap so-far hot first-bid first-in-hop all-bids, heap",
      "aggregates, 4, per-auction cheap so-far hot first-bid first-in-hop all-bids, heap",
      "aggregates, 2, per-auction cheap so-far hot first-bid first-in-hop all-bids, forst"})
  void outputEqualsGolden(String pipeline, int parallelism, String sinks, String backend) throws Exception {
    Path input = tmp.resolve("input.jsonl");
    String job = Pipelines.withInputs(pipeline, Pipelines.resource("pipelines/" + pipeline + "/job.yaml"), tmp);
    if (job.contains("${input}")) {
      Files.writeString(input, Pipelines.resource("pipelines/" + pipeline + "/input.jsonl"));
    }
    Path out = tmp.resolve("out");
    Pipelines.run(job, input, out, parallelism, backend);

    if (Boolean.getBoolean("golden.update") && backend.equals("heap")) {
      for (String sink : sinks.split(" ")) {
        Path file = Path.of("src/test/resources/pipelines", pipeline, "expected-" + sink + ".jsonl");
        Files.write(file, Pipelines.committed(out.resolve(sink)), StandardCharsets.UTF_8);
      }
      return;
    }
    for (String sink : sinks.split(" ")) {
      List<String> actual = Pipelines.committed(out.resolve(sink));
      String goldenName = "pipelines/" + pipeline + "/expected-" + sink + ".jsonl";
      List<String> golden = Pipelines.resource(goldenName).lines().filter(l -> !l.isBlank()).sorted().toList();
      assertThat(actual).as("sink %s of %s at parallelism %d", sink, pipeline, parallelism)
          .containsExactlyElementsOf(golden);
    }
  }
}
