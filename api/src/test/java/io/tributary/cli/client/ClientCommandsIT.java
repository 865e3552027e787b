package io.tributary.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.cli.Main;
import io.tributary.server.TributaryServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client commands against a real server started in-process: a job's whole life from the
 * command line, and every kind of failure as one line with its exit code.
 */
class ClientCommandsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir
  static Path tmp;

  private static TributaryServer server;

  @BeforeAll
  static void startServer() {
    server = TributaryServer.start(new TributaryServer.Config(tmp.resolve("data"), 0, null).withQuotas(
        io.tributary.scheduler.policy.Quotas.DEFAULTS.withMinCheckpointInterval(java.time.Duration.ofMillis(100))));
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  /** A job that runs until stopped: 200 generated records a second, counted per key and second. */
  private static Path trickle(String name, String extra) throws Exception {
    Path file = tmp.resolve(name + ".yaml");
    Files.writeString(file, """
        name: %s
        parallelism: {initial: 1, min: 1, max: 2}
        checkpoints: {interval: 300ms}
        state: {backend: heap}
        sources:
          gen: {type: datagen, keys: 20, maxRecordsPerSecond: 200, eventTime: {field: ts}}
        operators:
          - {id: counts, input: gen, keyBy: [key], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: counts, type: blackhole}
        %s""".formatted(name, extra));
    return file;
  }

  @Test
  void aJobLivesItsWholeLifeFromTheCommandLine() throws Exception {
    String job = "trickle";
    Path spec = trickle(job, "");

    Run applied = cli("apply", "-f", spec.toString(), "--wait", "--timeout", "60s");
    assertThat(applied.code).as(applied.err).isZero();
    assertThat(applied.out).isEqualTo("job trickle created (version 1) and running at parallelism 1\n");

    JsonNode json = JSON.readTree(ok(cli("get", job, "-o", "json")));
    assertThat(json.get("name").asText()).isEqualTo(job);
    assertThat(json.get("observedState").asText()).isEqualTo("running");
    assertThat(json.at("/spec/sources/gen/type").asText()).isEqualTo("datagen");
    long version = json.get("version").asLong();
    JsonNode yaml = YAML.readTree(ok(cli("get", job, "-o", "yaml")));
    assertThat(yaml.get("desiredState").asText()).isEqualTo("RUNNING");
    assertThat(yaml.at("/spec/operators/0/keyBy/0").asText()).isEqualTo("key");

    poll("a completed checkpoint", () -> cli("get", job, "-o", "json"),
        r -> r.out.contains("\"status\" : \"completed\""));
    List<String> table = ok(cli("get", job)).lines().toList();
    assertThat(table.get(0)).matches("NAME +DESIRED +STATE +PARALLELISM +LAST-CHECKPOINT +AGE");
    assertThat(table.get(1)).matches("trickle +running +running +1 +#\\d+ \\(\\d+m?s ago\\) +\\S+");
    assertThat(table).as("where the tasks run").anyMatch(l -> l.matches("WORKER +TASKS"))
        .anyMatch(l -> l.matches("in-process +gen.*\\[0].*"));

    assertThat(ok(cli("list"))).contains("NAME").containsPattern("(?m)^trickle +running");
    assertThat(JSON.readTree(ok(cli("list", "-o", "json"))).at("/items/0/name").asText()).isEqualTo(job);

    Run again = cli("apply", "-f", spec.toString());
    assertThat(again.out).isEqualTo("job trickle applied (version " + version + ")\n");

    assertThat(ok(cli("stop", job, "--savepoint", "--wait"))).isEqualTo("job trickle stopped with a savepoint\n");
    String savepoints = ok(cli("savepoints", job));
    assertThat(savepoints.lines().findFirst().orElseThrow())
        .matches("ID +STATUS +TRIGGER +PARALLELISM +SIZE +DURATION +AGE");
    assertThat(savepoints).containsPattern("(?m)^sp-\\S+ +completed +stop ");
    String savepoint = JSON.readTree(ok(cli("savepoints", job, "-o", "json"))).at("/items/0/id").asText();
    Run needed = cli("savepoints", job, "--delete", savepoint);
    assertThat(needed.code).as("the job resumes from it").isEqualTo(4);
    assertOneErrorLine(needed);

    assertThat(ok(cli("resume", job, "--savepoint-id", savepoint, "--wait"))).startsWith("job trickle running from ");

    assertThat(ok(cli("rescale", job, "2", "--wait"))).isEqualTo("job trickle running at parallelism 2\n");
    assertThat(JSON.readTree(ok(cli("get", job, "-o", "json"))).get("parallelism").asInt()).isEqualTo(2);
    assertThat(ok(cli("rescale", job, "2"))).isEqualTo("job trickle runs already at parallelism 2\n");
    assertThat(ok(cli("rescale", job, "--stage", "counts=1", "--wait")))
        .isEqualTo("job trickle running with stage counts at 1\n");
    assertThat(JSON.readTree(ok(cli("get", job, "-o", "json"))).at("/stageParallelism/counts").asInt()).isEqualTo(1);
    assertThat(ok(cli("get", job)).lines().skip(1).findFirst().orElseThrow()).contains(" 2 (counts 1) ");
    Run nothing = cli("rescale", job);
    assertThat(nothing.code).as("neither N nor --stage").isEqualTo(2);
    assertOneErrorLine(nothing);
    Run unknown = cli("rescale", job, "--stage", "nowhere=2");
    assertThat(unknown.code).isEqualTo(2);
    assertThat(unknown.err).contains("nowhere");
    assertOneErrorLine(unknown);

    assertThat(ok(cli("savepoints", job, "--trigger", "--wait"))).matches("savepoint \\S+ of job trickle completed\n");
    assertThat(ok(cli("savepoints", job, "--delete", savepoint)))
        .isEqualTo("savepoint " + savepoint + " of job trickle deleted\n");
    assertThat(JSON.readTree(ok(cli("savepoints", job, "-o", "json"))).get("items").findValuesAsText("id"))
        .as("the triggered one; rescales end the run at a checkpoint").hasSize(1).doesNotContain(savepoint);

    String events = ok(cli("events", job));
    assertThat(events.lines().findFirst().orElseThrow()).matches("AGE +KIND +STATE +MESSAGE");
    assertThat(events).contains("deploying -> running").contains("stopping -> stopped");
    assertThat(JSON.readTree(ok(cli("events", job, "-o", "json"))).get("items").size()).isGreaterThan(3);

    assertThat(ok(cli("delete", job))).isEqualTo("job trickle deleted\n");
    Run gone = cli("get", job);
    assertThat(gone.code).isEqualTo(3);
    assertOneErrorLine(gone);
  }

  @Test
  void aRunningJobIsWatchedFromTheCommandLine() throws Exception {
    String job = "watched";
    Path spec = trickle(job, "");
    assertThat(cli("apply", "-f", spec.toString(), "--wait", "--timeout", "60s").code).isZero();

    Run metrics = poll("records read", () -> cli("metrics", job), r -> r.out.matches("(?s)job watched: [1-9].*"));
    List<String> lines = metrics.out.lines().toList();
    assertThat(lines.get(0)).contains(" records/s in, ").contains("watermark lag ").contains("0 restarts");
    assertThat(lines.get(1)).matches("OPERATOR +STAGE +PARALLELISM +IN/S +OUT/S +WATERMARK-LAG +BUSY +BACKPRESSURED"
        + " +STATE +CHECKPOINT +LATE +MALFORMED");
    assertThat(lines.subList(2, lines.size())).as("a row per operator, in plan order")
        .extracting(l -> l.split(" +")[0]).containsExactly("gen", "counts", "out");
    assertThat(JSON.readTree(ok(cli("metrics", job, "-o", "json"))).at("/operators/1/operatorId").asText())
        .isEqualTo("counts");

    Run checkpoints = poll("a completed checkpoint", () -> cli("checkpoints", job), r -> r.out.contains(" completed "));
    assertThat(checkpoints.out.lines().findFirst().orElseThrow())
        .matches("ID +STATUS +AGE +DURATION +ALIGNMENT +SIZE +INCREMENTAL +UPLOADED +PARALLELISM +NOTE");
    assertThat(checkpoints.out).containsPattern("(?m)^\\d+ +completed +\\S+ +\\d+m?s ");
    assertThat(JSON.readTree(ok(cli("checkpoints", job, "--limit", "1", "-o", "json"))).get("items")).hasSize(1);
    Run withState = poll("the window's state size", () -> cli("metrics", job, "-o", "json"),
        r -> json(r.out).at("/operators/1/stateSizeBytes").isNumber());
    assertThat(JSON.readTree(withState.out).at("/operators/0/stateSizeBytes").isMissingNode())
        .as("the source has no keyed state").isTrue();
    assertThat(ok(cli("metrics", job))).as("state size and checkpoint duration")
        .containsPattern("(?m)^counts .* [\\d.]+ (B|KiB|MiB) +[\\d.]+m?s +\\d+ +\\d+$");

    Run records = cli("output", job, "--operator", "counts", "--limit", "3", "--timeout", "60s", "-o", "json");
    assertThat(records.code).as(records.err).isZero();
    assertThat(records.out.lines()).hasSize(3).allSatisfy(l -> {
      JsonNode event = JSON.readTree(l);
      assertThat(event.get("operatorId").asText()).isEqualTo("counts");
      assertThat(event.at("/value/n").asLong()).isPositive();
    });
    Run people = cli("output", job, "--limit", "2", "--timeout", "60s");
    assertThat(people.code).as(people.err).isZero();
    assertThat(people.out.lines()).hasSize(2).allMatch(l -> l.matches("out\\[0] \\{\"key\":\\d+,.*\"n\":\\d+.*}"));

    Run tooFew = cli("output", job, "--limit", "1000000", "--timeout", "300ms");
    assertThat(tooFew.code).isEqualTo(1);
    assertThat(tooFew.err).matches("tributary: timed out after 300ms with \\d+ of 1000000 records\n");
    Run noJob = cli("output", "nowhere", "--timeout", "60s");
    assertThat(noJob.code).as("404").isEqualTo(3);
    assertOneErrorLine(noJob);
    Run noOperator = cli("output", job, "--operator", "nowhere", "--timeout", "60s");
    assertThat(noOperator.code).as("400").isEqualTo(2);
    assertThat(noOperator.err).contains("'nowhere'").contains("[gen, counts, out]");
    assertOneErrorLine(noOperator);
    assertThat(cli("metrics", "nowhere").code).isEqualTo(3);
    assertThat(cli("checkpoints", "nowhere").code).isEqualTo(3);
    assertThat(ok(cli("delete", job))).isEqualTo("job watched deleted\n");
  }

  @Test
  void anInvalidSpecExits2WithEveryPointerIntoTheFile() throws Exception {
    Path bad = tmp.resolve("bad.yaml");
    Files.writeString(bad, """
        name: bad-job
        sources:
          s: {type: file}
        operators:
          - {id: w, input: s, keyBy: [k], window: {type: tumbling, size: ten}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: nowhere, type: stdout}
        """);
    for (String command : List.of("apply", "validate")) {
      Run r = cli(command, "-f", bad.toString());
      assertThat(r.code).as(r.err).isEqualTo(2);
      assertOneErrorLine(r);
      assertThat(r.err).contains("/sources/s/path: ").contains("/operators/0/window/size: ")
          .contains("/sinks/out/input: ").doesNotContain("/spec/");
    }
    assertThat(cli("get", "bad-job").code).as("nothing was applied").isEqualTo(3);
  }

  @Test
  void aSqlJobIsAppliedAndValidatedFromItsFileNamedByItOrByItsText() throws Exception {
    Path sql = tmp.resolve("sql_trickle.sql");
    Files.writeString(sql, """
        SET 'checkpoints.interval' = '300ms';
        SET 'state.backend' = 'heap';
        CREATE TABLE gen (`key` BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
          WITH ('connector' = 'datagen', 'keys' = '20', 'maxRecordsPerSecond' = '200');
        CREATE TABLE sink (`key` BIGINT, n BIGINT) WITH ('connector' = 'blackhole');
        INSERT INTO sink SELECT `key`, COUNT(*) FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '1' SECOND))
        GROUP BY `key`, window_start, window_end;
        """);
    Run planned = cli("validate", "-f", sql.toString());
    assertThat(planned.code).as(planned.err).isZero();
    assertThat(planned.out).startsWith("job sql-trickle:").contains("change: create").contains("hash by [key]");

    Run applied = cli("apply", "-f", sql.toString(), "--wait", "--timeout", "60s");
    assertThat(applied.code).as(applied.err).isZero();
    assertThat(applied.out).isEqualTo("job sql-trickle created (version 1) and running at parallelism 1\n");
    assertThat(JSON.readTree(ok(cli("get", "sql-trickle", "-o", "json"))).path("sql").asText())
        .isEqualTo(Files.readString(sql));
    assertThat(ok(cli("delete", "sql-trickle"))).isEqualTo("job sql-trickle deleted\n");

    Files.writeString(sql, "SET 'name' = 'renamed';\n" + Files.readString(sql).replace("COUNT(*)", "COUNT(keys)"));
    for (String command : List.of("apply", "validate")) {
      Run bad = cli(command, "-f", sql.toString());
      assertThat(bad.code).as(bad.err).isEqualTo(2);
      assertOneErrorLine(bad);
      assertThat(bad.err).isEqualTo("tributary: " + sql + ": line 7, column 38: Column 'keys' not found in any table\n");
    }
    assertThat(cli("get", "renamed").code).as("nothing was applied").isEqualTo(3);
  }

  @Test
  void validateOnTheServerPrintsThePlanAndWhatApplyingWouldDo() throws Exception {
    Run r = cli("validate", "-f", trickle("planned", "").toString(), "-p", "2");
    assertThat(r.code).as(r.err).isZero();
    assertThat(r.out).startsWith("job planned:").contains("change: create").contains("hash by [key]")
        .contains("key groups: subtask 0 [0, 64), subtask 1 [64, 128)");
    assertThat(JSON.readTree(ok(cli("validate", "-f", trickle("planned", "").toString(), "-o", "json")))
        .at("/change/action").asText()).isEqualTo("create");
  }

  @Test
  void applyWaitExits1WithTheReasonWhenTheJobFailsToStart() throws Exception {
    String job = "regrouped";
    assertThat(cli("apply", "-f", trickle(job, "").toString(), "--wait").code).isZero();
    poll("a completed checkpoint", () -> cli("get", job, "-o", "json"),
        r -> r.out.contains("\"status\" : \"completed\""));

    Run r = cli("apply", "-f", trickle(job, "maxParallelism: 64\n").toString(), "--wait", "--timeout", "60s");

    assertThat(r.code).as(r.out + r.err).isEqualTo(1);
    assertOneErrorLine(r);
    assertThat(r.err).startsWith("tributary: job regrouped failed: ").contains("maxParallelism");
    assertThat(cli("delete", job).code).isZero();
  }

  @Test
  void unknownJobsExit3AndConflictsExit4() throws Exception {
    for (String[] command : List.of(new String[] {"get", "nope"}, new String[] {"stop", "nope"},
        new String[] {"delete", "nope"}, new String[] {"events", "nope"}, new String[] {"savepoints", "nope"})) {
      Run r = cli(command);
      assertThat(r.code).as(String.join(" ", command) + ": " + r.err).isEqualTo(3);
      assertOneErrorLine(r);
    }
    String job = "idle";
    assertThat(cli("apply", "-f", trickle(job, "").toString(), "--wait").code).isZero();
    Run resume = cli("resume", job);
    assertThat(resume.code).as("resuming a running job: " + resume.err).isEqualTo(4);
    assertOneErrorLine(resume);
    assertThat(ok(cli("stop", job, "--wait"))).isEqualTo("job idle stopped\n");
    assertThat(ok(cli("rescale", job, "2"))).isEqualTo("job idle will run at parallelism 2 when resumed\n");
    assertThat(cli("delete", job).code).isZero();
  }

  @Test
  void aWrongTokenExits5() {
    Run r = Run.of(() -> Main.execute("list", "--server", server.url().toString(), "--token", "trb_wrong"));
    assertThat(r.code).isEqualTo(5);
    assertOneErrorLine(r);
  }

  @Test
  void aServerThatIsDownExits1WithOneLine() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "http://localhost:" + port;
    String spec = trickle("down", "").toString();
    Run r = Run.of(() -> Main.execute("apply", "-f", spec, "--server", url, "--token", "t"));
    assertThat(r.code).isEqualTo(1);
    assertThat(r.err).isEqualTo("tributary: cannot reach the server at " + url + ": connection refused\n");
  }

  private static Run cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--server", server.url().toString(), "--token", server.adminToken()));
    return Run.of(() -> Main.execute(all.toArray(String[]::new)));
  }

  private static String ok(Run r) {
    assertThat(r.code).as(r.err).isZero();
    return r.out;
  }

  private static void assertOneErrorLine(Run r) {
    assertThat(r.err.lines().filter(l -> l.startsWith("tributary: "))).hasSize(1);
    assertThat(r.err).doesNotContain("\tat ");
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Run poll(String what, Supplier<Run> run, Predicate<Run> done) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    Run last = run.get();
    while (!done.test(last)) {
      assertThat(System.nanoTime()).as("waiting for " + what + "; last: " + last.out + last.err).isLessThan(deadline);
      Thread.sleep(100);
      last = run.get();
    }
    return last;
  }

  /**
   * One command's exit code and what it printed: what the command's thread, and threads it started,
   * wrote to System.out and System.err. The server runs in this process too: what its threads log
   * meanwhile goes to the test's own streams.
   */
  private record Run(int code, String out, String err) {
    private static final InheritableThreadLocal<Boolean> COMMAND = new InheritableThreadLocal<>();

    static synchronized Run of(java.util.function.IntSupplier command) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      PrintStream oldOut = System.out;
      PrintStream oldErr = System.err;
      System.setOut(new PrintStream(routed(out, oldOut), true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(routed(err, oldErr), true, StandardCharsets.UTF_8));
      COMMAND.set(Boolean.TRUE);
      int code;
      try {
        code = command.getAsInt();
      } finally {
        COMMAND.remove();
        System.setOut(oldOut);
        System.setErr(oldErr);
      }
      return new Run(code, text(out), text(err));
    }

    /** Writes of the command's threads to {@code mine}, of every other thread to {@code others}. */
    private static java.io.OutputStream routed(ByteArrayOutputStream mine, PrintStream others) {
      return new java.io.OutputStream() {
        @Override
        public void write(int b) throws java.io.IOException {
          target().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
          target().write(b, off, len);
        }

        private java.io.OutputStream target() {
          return Boolean.TRUE.equals(COMMAND.get()) ? mine : others;
        }
      };
    }

    private static String text(ByteArrayOutputStream bytes) {
      return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
  }
}
