package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.boot.ControlTests;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server --workers local:2} as a user runs it: its worker processes register, jobs that do not
 * fit in their slots are turned away with a reason, and when the server is killed with {@code kill
 * -9} (no shutdown hook runs) the workers stop too instead of trying to reconnect forever.
 */
@Timeout(120)
class LocalWorkersOutliveNothingIT {
  @TempDir
  Path tmp;

  private static final String ADMIN = "local-workers-it-admin-token-0123456789";

  private Process server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly();
    }
  }

  @Test
  void workersOfAServerKilledWithSigkillStopToo() throws Exception {
    ProcessBuilder b = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main", "server", "--port", "0",
        "--data-dir", tmp.resolve("data").toString(), "--workers", "local:2", "--worker-slots", "1")
        .redirectErrorStream(true).redirectOutput(tmp.resolve("server.log").toFile());
    b.environment().put("TRIBUTARY_ADMIN_TOKEN", ADMIN);
    b.environment().remove("TRIBUTARY_CLUSTER_SECRET");
    server = b.start();
    Path logs = tmp.resolve("data").resolve("logs").resolve("workers");
    WorkerProcesses.await("the server serving, two workers registered", Duration.ofSeconds(60), () ->
        WorkerProcesses.log(tmp.resolve("server.log")).contains("Workers: ")
            && WorkerProcesses.log(logs.resolve("worker-1.log")).contains("registered")
            && WorkerProcesses.log(logs.resolve("worker-2.log")).contains("registered"));
    List<ProcessHandle> workers = server.children().filter(ProcessHandle::isAlive).toList();
    assertThat(workers).hasSize(2);
    assertThat(WorkerProcesses.log(tmp.resolve("server.log"))).contains("Workers: 2 local worker processes")
        .contains("cluster secret");
    jobsThatDoNotFitThePoolAreTurnedAway();

    server.destroyForcibly(); // SIGKILL: the server's shutdown hook never runs
    server.waitFor();
    WorkerProcesses.await("the workers stop with their server", Duration.ofSeconds(30), () ->
        workers.stream().noneMatch(ProcessHandle::isAlive));
  }

  /**
   * The pool has 2 slots in all (2 workers of 1): a job of 2 tasks runs, a rescale of it to 4 is refused
   * with a 400 while it goes on running, and a job of 4 tasks fails at once saying what to change,
   * instead of waiting for slots that never come.
   */
  private void jobsThatDoNotFitThePoolAreTurnedAway() throws Exception {
    Matcher serving = Pattern.compile("serving on (http://\\S+)").matcher(WorkerProcesses.log(tmp.resolve("server.log")));
    assertThat(serving.find()).isTrue();
    String url = serving.group(1) + "/v1/projects/default/jobs/";
    HttpResponse<String> small = send("PUT", url + "small", body(ControlTests.trickle("small", "{initial: 1, max: 2}").replace("200ms", "1s")));
    assertThat(small.statusCode()).as(small.body()).isBetween(200, 201);
    WorkerProcesses.await("small runs", Duration.ofSeconds(60),
        () -> get(url + "small").path("observedState").asText().equals("running"));

    HttpResponse<String> wider = send("POST", url + "small/rescale", "{\"parallelism\": 2}");
    assertThat(wider.statusCode()).as(wider.body()).isEqualTo(400);
    assertThat(JSON.readTree(wider.body()).path("detail").asText()).isEqualTo("parallelism: the job would run 4 tasks,"
        + " but the worker pool has 2 slots in all (one task each): give the pool more workers or slots, or the job a"
        + " lower parallelism");
    assertThat(get(url + "small").path("observedState").asText()).isEqualTo("running");

    HttpResponse<String> big = send("PUT", url + "big", body(ControlTests.trickle("big", "2").replace("200ms", "1s")));
    assertThat(big.statusCode()).as(big.body()).isBetween(200, 201);
    WorkerProcesses.await("big fails", Duration.ofSeconds(30),
        () -> get(url + "big").path("observedState").asText().equals("failed"));
    assertThat(get(url + "big").toString()).contains("needs 4 slots, but the pool's 2 workers have 2 in all (1 each);"
        + " start the server with --workers local:4 or --worker-slots 2, or give the job a lower parallelism")
        .doesNotContain("after waiting");

    // a job that fits the pool but whose slots another job holds waits, says so at once, and runs once they are free
    HttpResponse<String> later = send("PUT", url + "later", body(ControlTests.trickle("later", "1").replace("200ms",
        "1s")));
    assertThat(later.statusCode()).as(later.body()).isBetween(200, 201);
    WorkerProcesses.await("later says it waits", Duration.ofSeconds(30), () -> get(url + "later/events").toString()
        .contains("waiting up to 60 s for 2 free slots: the 2 workers of the pool have 0 free (of 2)"));
    assertThat(get(url + "later").path("observedState").asText()).isEqualTo("deploying");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      assertThat(io.tributary.cli.Main.execute("get", "later", "--server", serving.group(1), "--token", ADMIN)).isZero();
    } finally {
      System.setOut(stdout);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).as("the CLI says why it deploys")
        .containsPattern("latest: waiting up to 60 s for 2 free slots: the 2 workers of the pool have 0 free \\(of 2\\) "
            + "\\([\\d.]+(ms|s) ago\\)");
    HttpResponse<String> stop = send("POST", url + "small/stop", "{}");
    assertThat(stop.statusCode()).as(stop.body()).isBetween(200, 202);
    WorkerProcesses.await("later runs in small's slots", Duration.ofSeconds(60),
        () -> get(url + "later").path("observedState").asText().equals("running"));
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static String body(String specYaml) throws Exception {
    JsonNode spec = new ObjectMapper(new YAMLFactory()).readTree(specYaml);
    return JSON.createObjectNode().set("spec", spec).toString();
  }

  private static HttpResponse<String> send(String method, String url, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + ADMIN)
        .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode get(String url) {
    try {
      return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + ADMIN)
          .build(), HttpResponse.BodyHandlers.ofString()).body());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
