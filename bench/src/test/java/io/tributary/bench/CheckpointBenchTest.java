package io.tributary.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpecs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench checkpoint}: its arithmetic, its job, and tiny runs of both parts (figures not checked). */
class CheckpointBenchTest {
  @TempDir
  Path tmp;

  @Test
  void percentilesAreNearestRank() {
    long[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(CheckpointBench.percentile(v, 0.5)).isEqualTo(5);
    assertThat(CheckpointBench.percentile(v, 0.99)).isEqualTo(10);
    assertThat(CheckpointBench.percentile(new long[] {7}, 0.99)).isEqualTo(7);
    assertThat(CheckpointBench.percentile(new long[0], 0.5)).isZero();
  }

  @Test
  void theVerdictSaysWhenTheStateWasSmallerThanTheTarget() {
    assertThat(CheckpointBench.recoveryVerdict(3, 1L << 30)).endsWith(": met");
    assertThat(CheckpointBench.recoveryVerdict(6, 1L << 30)).endsWith(": missed");
    assertThat(CheckpointBench.recoveryVerdict(3, 200L << 20)).contains("not shown").contains("200.0 MiB");
    assertThat(CheckpointBench.recoveryVerdict(6, 200L << 20)).contains("missed already with 200.0 MiB");
  }

  @Test
  void theRecoveryJobPlans() {
    CheckpointBench bench = new CheckpointBench();
    bench.parallelism = 2;
    bench.stateBackend = "forst";
    bench.stateKey = List.of("bidder", "auction", "extra");
    bench.aggregates = 40;
    assertThat(Planner.plan(JobSpecs.parse(bench.stateSpec())).jobName()).isEqualTo("bench-checkpoint-state");
  }

  @Test
  void tinyRunsOfBothPartsPrintTheirFiguresAndLeaveNothingBehind() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = BenchCommand.execute("checkpoint", "--events", "20000", "--warmup", "0s", "--state-size", "1k",
          "--state-interval", "300ms", "--observe", "2s", "--checkpoint-timeout", "0", "--work-dir", tmp.toString());
    } finally {
      System.setOut(oldOut);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).isZero();
    assertThat(text).contains("events/s", "throughput, checkpoints every 10 s", "checkpoint duration",
        "failure to processing again");
    try (var left = Files.list(tmp)) {
      assertThat(left).isEmpty();
    }
  }
}
