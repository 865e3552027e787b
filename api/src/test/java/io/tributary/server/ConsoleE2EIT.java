package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import io.tributary.scheduler.spec.JobSpecs;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console end to end: {@code console-ui/e2e/console.e2e.mjs} drives Debian's Chromium through
 * playwright-core against a real server. The server starts as the README's first command starts it,
 * with {@code examples/live-auctions.yaml} applied: its watermark lag is under a minute, its
 * checkpoints show a duration and a size, and the live output of its two sinks is one readable table
 * each. Then a job is created in the editor, runs with moving charts, stops with a savepoint and
 * resumes. Screenshots of each view go to {@code api/target/screenshots}. {@code .ci/run} installs
 * Chromium when it is missing.
 */
public class ConsoleE2EIT {
  public static final Path CONSOLE = Path.of(System.getProperty("tributary.console", "../console-ui")).toAbsolutePath().normalize();
  public static final Path LIVE_EXAMPLE = CONSOLE.resolveSibling("examples/live-auctions.yaml");

  @TempDir
  Path dir;

  TributaryServer server;

  @BeforeEach
  void start() throws IOException {
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    String spec = Files.readString(LIVE_EXAMPLE); // as `tributary server --apply` applies it
    server.jobs().apply("default", JobSpecs.parse(spec).name(), spec, null);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void theLiveExampleThenCreateWatchStopWithSavepointAndResumeInTheBrowser() throws IOException, InterruptedException {
    drive(server.url().toString(), ServerTests.ADMIN, Path.of("target/screenshots").toAbsolutePath(), dir.resolve("e2e.log"));
  }

  /**
   * Runs {@code console-ui/e2e/console.e2e.mjs} against the server at {@code baseUrl}, whose job
   * {@code live-auctions} runs the live example, and asserts that it passed and took its screenshots
   * into {@code screenshots} (emptied first).
   */
  public static void drive(String baseUrl, String token, Path screenshots, Path log)
      throws IOException, InterruptedException {
    Path chromium = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    assertThat(chromium).as("Chromium is needed for the console tests: apt-get install chromium (.ci/run does)")
        .isExecutable();
    assertThat(CONSOLE.resolve("node_modules/playwright-core")).as("console-ui is built first (npm ci)").isDirectory();
    Files.createDirectories(screenshots);
    try (var old = Files.list(screenshots)) {
      for (Path f : old.filter(f -> f.toString().endsWith(".png")).toList()) {
        Files.delete(f); // count this run's screenshots only
      }
    }
    ProcessBuilder pb = new ProcessBuilder("node", "e2e/console.e2e.mjs").directory(CONSOLE.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("BASE_URL", baseUrl);
    pb.environment().put("TOKEN", token);
    pb.environment().put("SCREENSHOT_DIR", screenshots.toString());
    pb.environment().put("CHROMIUM", chromium.toString());
    pb.environment().put("LIVE_JOB", "live-auctions");
    Process p = pb.start();
    boolean done = p.waitFor(5, TimeUnit.MINUTES);
    if (!done) {
      p.destroyForcibly();
    }
    String output = Files.readString(log);
    System.out.print(output); // what the run saw, in the test's report
    assertThat(done).as("the console e2e run ended within 5 minutes:%n%s", output).isTrue();
    assertThat(p.exitValue()).as("console e2e:%n%s", output).isZero();
    try (var files = Files.list(screenshots)) {
      assertThat(files.filter(f -> f.toString().endsWith(".png")).count()).isGreaterThanOrEqualTo(8);
    }
  }
}
