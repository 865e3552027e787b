package io.tributary.run;

import static io.tributary.run.FaultRuns.committed;
import static io.tributary.run.FaultRuns.hidden;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary run} killed with SIGKILL at random checkpoints and resumed with {@code --restore
 * latest}: after the last run ends, the committed output equals that of a run without kills. State
 * is in forst, whose files must survive the kills in the checkpoint directory. The
 * kill points come from a seed printed on stdout; rerun one with {@code -Dkill.seed=<seed>}.
 */
class CheckpointKillIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir
  Path tmp;

  @Timeout(150)
  @Test
  void aJobKilledAtRandomCheckpointsAndResumedCommitsExactlyTheOutputOfARunWithoutKills() throws Exception {
    long seed = Long.getLong("kill.seed", System.nanoTime());
    System.out.println("CheckpointKillIT seed: " + seed + " (rerun with -Dkill.seed=" + seed + ")");
    Random random = new Random(seed);
    List<String> expected = FaultRuns.reference(plan(spec(tmp.resolve("reference"), 0, "heap"), null),
        tmp.resolve("reference"));
    Path out = tmp.resolve("out");
    Path spec = tmp.resolve("job.yaml");
    Files.writeString(spec, spec(out, 5000, "forst"));
    Path checkpoints = tmp.resolve("checkpoints");

    int kills = 2 + random.nextInt(2);
    List<String> history = new ArrayList<>();
    for (int k = 0; k < kills; k++) {
      int after = 1 + random.nextInt(3);
      Cli run = Cli.start(tmp, spec, checkpoints, k == 0 ? "none" : "latest");
      String why = "seed " + seed + ", run " + (k + 1) + "; earlier runs:\n" + String.join("\n", history);
      for (int i = 0; i < after; i++) {
        String line = run.nextCheckpoint();
        assertThat(line).as("checkpoint %d of run %d; %s; stderr:\n%s", i + 1, k + 1, why, run.stderr()).isNotNull();
      }
      int code = run.kill();
      assertThat(code).as("killed by SIGKILL while running; %s; stderr:\n%s", why, run.stderr()).isEqualTo(137);
      if (k > 0) {
        assertThat(run.stderr()).as(why).contains("tributary: restoring from checkpoint");
      }
      history.add("killed after " + after + " checkpoints:\n" + run.stderr());
    }

    Cli last = Cli.start(tmp, spec, checkpoints, "latest");
    int code = last.await();
    String why = "seed " + seed + "; runs:\n" + String.join("\n", history) + "\nlast run:\n" + last.stderr();
    assertThat(code).as(why).isZero();
    assertThat(last.stderr()).as(why).contains("tributary: restoring from checkpoint").contains("finished");
    List<String> actual = committed(out);
    assertThat(actual).as(why).containsExactlyElementsOf(expected);
    FaultRuns.assertOneResultPerKeyAndWindow(actual, "auction");
    assertThat(hidden(out)).as(why).isEmpty();
    System.out.println(why);
  }

  /**
   * Nexmark bids per auction; 30,000 bids at {@code maxRecordsPerSecond} (0: unthrottled). Few key
   * groups keep forst's checkpoints short (one shard per key group), so the job does not end before
   * the planned kills.
   */
  private static String spec(Path out, int maxRecordsPerSecond, String backend) {
    return """
        name: killed-bids
        parallelism: 2
        maxParallelism: 8
        checkpoints: {interval: 100ms}
        sources:
          bids:
            type: nexmark
            kind: bid
            events: 30000
            %s
            eventTime: {field: dateTime, maxOutOfOrderness: 100ms}
        operators:
          - id: per-auction
            input: bids
            keyBy: [auction]
            window: {type: tumbling, size: 500ms}
            aggregate: {bids: "count(*)", top: "max(price)"}
        sinks:
          out: {input: per-auction, type: file, path: "%s"}
        state: {backend: %s}
        """.formatted(maxRecordsPerSecond > 0 ? "maxRecordsPerSecond: " + maxRecordsPerSecond : "", out, backend);
  }

  /** {@code tributary run} in its own JVM, on the test's classpath; stderr is read line by line. */
  private static final class Cli {
    private final Process process;
    private final Thread reader;
    private final BlockingQueue<String> checkpoints = new LinkedBlockingQueue<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();

    private Cli(Process process) {
      this.process = process;
      this.reader = new Thread(this::readStderr, "cli-stderr");
      reader.setDaemon(true);
      reader.start();
    }

    static Cli start(Path workDir, Path spec, Path checkpointDir, String restore) throws IOException {
      ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
          "-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main",
          "run", spec.toString(), "--checkpoint-dir", checkpointDir.toString(), "--restore", restore,
          "--progress-interval", "0")
          .directory(workDir.toFile())
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().keySet().removeIf(k -> k.startsWith("TRIBUTARY_"));
      return new Cli(pb.start());
    }

    private void readStderr() {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          stderr.add(line);
          if (line.matches("checkpoint \\d+ completed")) {
            checkpoints.add(line);
          }
        }
      } catch (IOException e) {
        stderr.add("(stderr unreadable: " + e + ")");
      }
    }

    /** The next {@code checkpoint <n> completed} line, or null if none came within the deadline. */
    String nextCheckpoint() throws InterruptedException {
      return checkpoints.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Kills the process with SIGKILL and returns its exit code. */
    int kill() throws InterruptedException {
      process.destroyForcibly();
      assertThat(process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      reader.join(DEADLINE.toMillis());
      return process.exitValue();
    }

    /** Waits for the process to end by itself. */
    int await() throws InterruptedException {
      if (!process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("tributary run did not end within " + DEADLINE + ":\n" + stderr());
      }
      reader.join(DEADLINE.toMillis());
      return process.exitValue();
    }

    String stderr() {
      return String.join("\n", stderr);
    }
  }
}
