package io.tributary.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.ControlTests;
import io.tributary.boot.ServerConfiguration;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.server.TributaryServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A server configured with S3 (S3Proxy) and DynamoDB (dynalite) keeps nothing on its local disk
 * that a job needs: stopped, its data directory deleted, and started again on an empty one, it
 * resumes every running job from the checkpoints on S3. A server whose store cannot be reached
 * says which, in one line, and exits non-zero.
 */
@Timeout(180)
class ServerRestartOnEmptyDiskIT {
  private static final String ADMIN = "cloud-restart-it-admin-token-0123456789";
  private static final Pattern RESTORED = Pattern.compile("restoring from checkpoint (\\d+)");
  private static CloudStores stores;

  @TempDir
  Path tmp;

  @BeforeAll
  static void startStores() throws Exception {
    stores = CloudStores.start();
  }

  @AfterAll
  static void stopStores() throws Exception {
    if (stores != null) {
      stores.close();
    }
  }

  @Test
  void aRestartOnAnEmptyDiskResumesEveryRunningJobFromS3() throws Exception {
    ServerConfiguration cloud = stores.configuration("restart", "tributary-restart", "3s");
    String counts = """
        name: counts
        parallelism: 2
        checkpoints: {interval: 300ms}
        state: {backend: forst}
        sources:
          numbers: {type: datagen, count: 100000000, maxRecordsPerSecond: 2000, keys: 500, eventTime: {field: ts}}
        operators:
          - {id: per-key, input: numbers, keyBy: [key], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-key, type: blackhole}
        """;
    Path first = tmp.resolve("first");
    long checkpointed;
    try (TributaryServer server = TributaryServer.start(config(first, cloud), ControlTests.settings())) {
      server.jobs().apply("default", "counts", counts, null);
      server.jobs().apply("default", "trickle", ControlTests.trickle("trickle", "1"), null);
      server.jobs().apply("default", "parked", ControlTests.trickle("parked", "1"), null);
      server.jobs().stop("default", "parked", false);
      // the stop answers before it is done; a job stopped before the restart is what this test restarts with
      ControlTests.awaitState(server.jobs(), "default", "parked", ObservedState.STOPPED);
      awaitWithEvents(server, "counts completes three checkpoints and trickle one", () ->
          checkpoint(server.jobs().get("default", "counts")) >= 3 && checkpoint(server.jobs().get("default", "trickle")) >= 1);
      checkpointed = checkpoint(server.jobs().get("default", "counts"));
    }
    assertThat(first.resolve("checkpoints")).as("no checkpoint directory on the local disk").doesNotExist();
    assertThat(first.resolve("metadata")).as("no embedded metadata store on the local disk").doesNotExist();
    try (S3Client s3 = stores.s3Client()) {
      List<String> names = s3.listObjectsV2Paginator(b -> b.bucket(CloudStores.BUCKET).prefix("restart/")).contents()
          .stream().map(S3Object::key).toList();
      assertThat(names).as("checkpoints and state files on S3").anyMatch(n -> n.contains("/checkpoints/chk-"))
          .anyMatch(n -> n.contains("/state/"));
    }
    deleteTree(first);

    Path second = tmp.resolve("second");
    try (TributaryServer server = TributaryServer.start(config(second, cloud), ControlTests.settings())) {
      JobView resumed = ControlTests.awaitState(server.jobs(), "default", "counts", ObservedState.RUNNING);
      ControlTests.awaitState(server.jobs(), "default", "trickle", ObservedState.RUNNING);
      assertThat(server.jobs().get("default", "parked").observed()).as("a stopped job stays stopped")
          .isEqualTo(ObservedState.STOPPED);
      // until this process took the job over, its stored status still reads as the last one left it
      ControlTests.await("counts restores", Duration.ofSeconds(60), () ->
          restoredFrom(server.jobs().events("default", "counts")) >= 0);
      long restored = restoredFrom(server.jobs().events("default", "counts"));
      assertThat(restored).as("counts restored its latest checkpoint from S3 (%s)", resumed).isGreaterThanOrEqualTo(
          checkpointed);
      awaitWithEvents(server, "counts checkpoints again after the restart", () ->
          checkpoint(server.jobs().get("default", "counts")) > restored);
      assertThat(server.jobs().tokens().authenticate(ADMIN)).as("the administrator token still works").isPresent();
    }
  }

  @Test
  void aServerWhoseMetadataStoreCannotBeReachedSaysSoInOneLine() throws Exception {
    Path file = tmp.resolve("unreachable.yaml");
    Files.writeString(file, """
        tributary:
          metadata:
            dynamodb: {table: nowhere, endpoint: "http://127.0.0.1:9", region: us-east-1}
        """);
    String line = startFails(file);
    assertThat(line).contains("metadata store: DynamoDB table 'nowhere' at http://127.0.0.1:9")
        .contains("cannot be reached: Connection refused");
  }

  @Test
  void aServerWhoseBucketIsMissingSaysSoInOneLine() throws Exception {
    Path file = tmp.resolve("no-bucket.yaml");
    Files.writeString(file, stores.configFile("x", "tributary-no-bucket", "3s")
        .replace("s3://" + CloudStores.BUCKET + "/x", "s3://no-such-bucket/x"));
    assertThat(startFails(file)).contains("object store s3://no-such-bucket/x cannot be reached");
  }

  /** Starts a server on {@code config} that must fail: its one line of output. */
  private String startFails(Path file) throws Exception {
    ProcessBuilder b = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main", "server", "--port", "0",
        "--data-dir", tmp.resolve("data").toString(), "--config", file.toString()).redirectErrorStream(true);
    b.environment().putAll(CloudStores.env());
    b.environment().put("TRIBUTARY_ADMIN_TOKEN", ADMIN);
    Process p = b.start();
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the server gives up").isTrue();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.exitValue()).as("exit code; output:\n%s", out).isNotZero();
    List<String> lines = out.lines().filter(l -> l.startsWith("tributary")).toList();
    assertThat(lines).as("output:\n%s", out).hasSize(1);
    assertThat(out).doesNotContain("\tat ").doesNotContain("Exception:");
    return lines.get(0);
  }

  private static TributaryServer.Config config(Path data, ServerConfiguration cloud) {
    return new TributaryServer.Config(data, 0, ADMIN).withStores(cloud)
        .withQuotas(io.tributary.scheduler.policy.Quotas.DEFAULTS.withMinCheckpointInterval(Duration.ofMillis(100)));
  }

  /** Waits a minute for {@code condition}; on failure says where each job's run stands. */
  private static void awaitWithEvents(TributaryServer server, String what, java.util.function.BooleanSupplier condition) {
    try {
      ControlTests.await(what, Duration.ofSeconds(60), condition);
    } catch (AssertionError e) {
      StringBuilder b = new StringBuilder(e.getMessage());
      for (String job : List.of("counts", "trickle")) {
        JobView v = server.jobs().get("default", job);
        b.append("\n").append(job).append(": ").append(v.observed()).append(", last checkpoint ")
            .append(v.lastCheckpoint()).append("; events:\n").append(ControlTests.timeline(server.jobs().events("default", job)));
      }
      Thread.getAllStackTraces().forEach((t, stack) -> {
        String n = t.getName();
        if (n.contains("counts") || n.startsWith("task ") || n.startsWith("forst-") || n.startsWith("checkpoint")) {
          b.append("\nthread ").append(t.getName()).append(" ").append(t.getState());
          for (StackTraceElement f : stack) {
            b.append("\n  at ").append(f);
          }
        }
      });
      throw new AssertionError(b.toString(), e);
    }
  }

  private static long checkpoint(JobView v) {
    if (v.observed() == ObservedState.FAILED) {
      throw new AssertionError("job " + v.name() + " failed: " + v.failure());
    }
    return v.lastCheckpoint() == null ? -1 : v.lastCheckpoint().id();
  }

  private static long restoredFrom(List<JobEvent> events) {
    long id = -1;
    for (JobEvent e : events) {
      Matcher m = RESTORED.matcher(e.message());
      if (m.find()) {
        id = Long.parseLong(m.group(1));
      }
    }
    return id;
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
