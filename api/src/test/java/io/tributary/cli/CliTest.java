package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The CLI: exit codes, one-line errors without stack traces, and a run that commits its output. */
class CliTest {
  @TempDir
  Path tmp;

  @RegisterExtension
  final StdStreams std = new StdStreams();


  @Test
  void aMissingSpecFileIsOneLineAndExitCode2() {
    int code = Main.execute("run", tmp.resolve("nope.yaml").toString());
    assertThat(code).isEqualTo(2);
    assertThat(std.err()).startsWith("tributary: no such file: ").doesNotContain("\tat ");
    assertThat(std.err().strip().lines()).hasSize(1);
  }

  @Test
  void aCommandLineItCannotTakeIsOneLineThatPointsAtTheUsageAndExitCode2() {
    assertThat(Main.execute()).isEqualTo(2);
    assertThat(std.err()).contains("Commands:").contains("apply");
    std.reset();
    assertThat(Main.execute("apply")).isEqualTo(2);
    assertThat(std.err().strip()).isEqualTo("tributary: Missing required option: '--file=FILE' (see 'tributary apply --help')");
    std.reset();
    assertThat(Main.execute("get", "clicks", "--outptu", "json")).isEqualTo(2);
    assertThat(std.err().strip()).startsWith("tributary: Unknown options: '--outptu', 'json'; did you mean --output?")
        .endsWith(" (see 'tributary get --help')").doesNotContain("\n");
  }

  @Test
  void everyCommandShowsItsUsageWithHelp() {
    for (String command : new picocli.CommandLine(new Main()).getSubcommands().keySet()) {
      if (command.equals("help")) {
        continue;
      }
      std.reset();
      assertThat(Main.execute(command, "--help")).as(command).isZero();
      assertThat(std.out()).as(command).startsWith("Usage: tributary " + command + " ");
      std.reset();
      assertThat(Main.execute("help", command)).as("help " + command).isZero();
      assertThat(std.out()).as("help " + command).startsWith("Usage: tributary " + command + " ");
    }
  }

  @Test
  void kafkasReconnectWarningsDoNotFloodTheTerminalButItsErrorsShow() {
    Main.execute("--version");
    org.slf4j.Logger network = org.slf4j.LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient");
    assertThat(network.isWarnEnabled()).isFalse();
    assertThat(network.isErrorEnabled()).isTrue();
    assertThat(org.slf4j.LoggerFactory.getLogger("org.apache.kafka.clients.producer.KafkaProducer").isWarnEnabled())
        .isTrue();
  }

  @Test
  void aWorkerWithoutAnAddressOrSecretSaysWhatToFixInOneLine() {
    assertThat(Main.execute("worker", "--control-plane", "nowhere")).isNotZero();
    assertThat(std.err().strip()).isEqualTo("tributary: --control-plane is HOST:PORT (the server's worker port), "
        + "or several comma-separated, not 'nowhere'");
    org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("TRIBUTARY_CLUSTER_SECRET") == null);
    std.reset();
    assertThat(Main.execute("worker", "--control-plane", "grpc://localhost:7077")).isNotZero();
    assertThat(std.err().strip()).startsWith("tributary: TRIBUTARY_CLUSTER_SECRET is not set").doesNotContain("\n");
  }

  @Test
  void aServerWithAnImpossibleWorkerPoolSaysWhatToFixInOneLine() {
    assertThat(Main.execute("server", "--data-dir", tmp.resolve("data").toString(), "--port", "0",
        "--workers", "local:0")).isNotZero();
    assertThat(std.err().strip()).isEqualTo("tributary: --workers local:N needs N between 1 and 64, not 'local:0'");
  }

  @Test
  void aServerWhosePortIsTakenSaysSoInOneLine() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      assertThat(Main.execute("server", "--data-dir", tmp.resolve("data").toString(), "--port", String.valueOf(port)))
          .isEqualTo(2);
      assertThat(std.err().strip().lines().filter(l -> l.startsWith("tributary: ")).toList()).containsExactly(
          "tributary: port " + port + " on 127.0.0.1 is in use (another Tributary server?): stop what listens there,"
              + " or serve on another port (--port)");
    }
  }

  @Test
  void anInvalidSpecListsEveryErrorWithItsPointer() throws Exception {
    Path spec = tmp.resolve("bad.yaml");
    Files.writeString(spec, """
        name: Bad_Name
        sources:
          s: {type: file}
        operators:
          - {id: w, input: s, keyBy: [k], window: {type: tumbling, size: ten}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: nowhere, type: stdout}
        """);
    int code = Main.execute("validate", spec.toString());
    assertThat(code).isEqualTo(2);
    assertThat(std.err())
        .contains("/name")
        .contains("/sources/s/path")
        .contains("/operators/0/window/size")
        .contains("/sinks/out/input")
        .doesNotContain("\tat ");
  }

  @Test
  void validatePrintsThePlanWithKeyGroups() throws Exception {
    int code = Main.execute("validate", Path.of("../examples/clicks-per-user.yaml").toString(), "-p", "3");
    assertThat(code).as(std.err()).isZero();
    assertThat(std.out()).contains("hash by [user]").contains("key groups");
  }

  @Test
  void theSqlOperatorsExampleIsValid() throws Exception {
    int code = Main.execute("validate", Path.of("../examples/sql-operators.yaml").toString());
    assertThat(code).as(std.err()).isZero();
    assertThat(std.out()).contains("window join tumbling 10000ms bids-on-auctions", "top 3 hottest",
        "interval join", "group aggregate per-seller keyBy [seller] (an upsert stream)",
        "sink sellers (file, json, upserts keyed by [seller])");
  }

  @Test
  void runProcessesABoundedJobToTheEndAndCommitsItsOutput() throws Exception {
    Path input = tmp.resolve("in.jsonl");
    Files.writeString(input, """
        {"k": "a", "ts": 1000}
        {"k": "b", "ts": 1500}
        not json
        {"k": "a", "ts": 2500}
        """);
    Path spec = tmp.resolve("job.yaml");
    Files.writeString(spec, """
        name: cli-run
        sources:
          in: {type: file, path: %s, eventTime: {field: ts}}
        operators:
          - {id: counts, input: in, keyBy: [k], window: {type: tumbling, size: 2s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: counts, type: file, path: %s}
        """.formatted(input, tmp.resolve("out")));
    int code = Main.execute("run", spec.toString(), "--progress-interval", "0");
    assertThat(code).as(std.err()).isZero();
    assertThat(Pipelines.committed(tmp.resolve("out"))).containsExactly(
        "{\"k\":\"a\",\"window_start\":0,\"window_end\":2000,\"n\":1,\"revision\":0}",
        "{\"k\":\"a\",\"window_start\":2000,\"window_end\":4000,\"n\":1,\"revision\":0}",
        "{\"k\":\"b\",\"window_start\":0,\"window_end\":2000,\"n\":1,\"revision\":0}");
    assertThat(std.err()).contains("malformed 1").contains("finished");
  }
}
