package io.tributary.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs the image as the chart does, through its entrypoint as its user: {@code server ... --workers
 * external} and a {@code worker} registering at it, each in a container of its own over the one
 * unpacked file system (a volume they share for the embedded object store), then a job with RocksDB
 * state that checkpoints on the worker.
 */
class ImageRunIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ADMIN = "image-check-administrator-token-0123456789";
  private static final Duration START = Duration.ofSeconds(60);

  private final HttpClient http = HttpClient.newHttpClient();
  private Process server;
  private Process worker;

  @BeforeEach
  void canRunContainers() {
    assumeTrue(ContainerRun.available(), "running the image needs root, unshare and chroot (what a container "
        + "runtime does), which this machine does not give");
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : new Process[] {worker, server}) {
      if (p != null) {
        ContainerRun.stop(p, Duration.ofSeconds(30));
      }
    }
  }

  @Test
  void serverServesTheConsoleAndRunsAJobOnAWorker() throws Exception {
    String api = startServerAndWorker();
    JsonNode health = await("/health (" + logs().resolve("server.log") + ")", () -> json(get(api + "/health")));
    assertThat(health.get("status").asText()).isEqualTo("UP");
    HttpResponse<String> console = get(api + "/");
    assertThat(console.statusCode()).isEqualTo(200);
    assertThat(console.body()).as("the console's page from the image's console jar").isEqualTo(consoleIndex());

    HttpResponse<String> put = send(HttpRequest.newBuilder(URI.create(api + "/v1/projects/default/jobs/image-check"))
        .PUT(HttpRequest.BodyPublishers.ofString(resource("/image-check-job.json"))));
    assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
    JsonNode checkpoint = await("completed checkpoint (" + logs().resolve("worker.log") + ")", () -> {
      JsonNode items = json(get(api + "/v1/projects/default/jobs/image-check/checkpoints")).path("items");
      return items.size() > 0 && "completed".equals(items.get(0).path("status").asText()) ? items.get(0) : null;
    });
    assertThat(checkpoint.get("uploadedBytes").asLong()).as("RocksDB state uploaded").isPositive();
    JsonNode job = json(get(api + "/v1/projects/default/jobs/image-check"));
    assertThat(job.get("tasks")).hasSize(4).allMatch(t -> t.get("worker").asText().equals("image-worker"));
    Path root = UnpackedImage.root();
    assertThat(ownedByTheImagesUser(root.resolve("var/lib/tributary/checkpoints"))).isTrue();
    try (Stream<Path> cache = Files.list(root.resolve("var/cache/tributary"))) {
      assertThat(cache).as("the worker's cache directory").isNotEmpty();
    }
  }

  /** Starts both containers, as the chart's pods; returns the API's URL. */
  private String startServerAndWorker() throws IOException {
    ContainerRun run = new ContainerRun(UnpackedImage.root(), UnpackedImage.tarball().config());
    int apiPort = freePort();
    int workerPort = freePort();
    Map<String, String> secret = Map.of("TRIBUTARY_CLUSTER_SECRET", "trc_image-check-cluster-secret");
    Map<String, String> serverEnv = new HashMap<>(secret);
    serverEnv.put("TRIBUTARY_ADMIN_TOKEN", ADMIN);
    server = run.start(List.of("server", "--port", String.valueOf(apiPort), "--workers", "external",
        "--worker-port", String.valueOf(workerPort)), serverEnv, logs().resolve("server.log"));
    worker = run.start(List.of("worker", "--control-plane", "127.0.0.1:" + workerPort, "--worker-id", "image-worker",
        "--slots", "4", "--cache-dir", "/var/cache/tributary"), secret, logs().resolve("worker.log"));
    return "http://127.0.0.1:" + apiPort;
  }

  /** Where the containers' output goes: beside the unpacked file system. */
  private static Path logs() {
    return UnpackedImage.root().getParent();
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(url)).GET());
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.header("Authorization", "Bearer " + ADMIN).header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> r) throws IOException {
    if (r.statusCode() != 200) {
      throw new IOException(r.uri() + ": " + r.statusCode() + " " + r.body());
    }
    return JSON.readTree(r.body());
  }

  /** Polls {@code what} until it gives a value (not null, no exception), up to {@link #START}. */
  private <T> T await(String what, Callable<T> poll) throws InterruptedException {
    Instant deadline = Instant.now().plus(START);
    Exception last = null;
    while (Instant.now().isBefore(deadline)) {
      assertThat(server.isAlive()).as("the server container runs").isTrue();
      try {
        T value = poll.call();
        if (value != null) {
          return value;
        }
      } catch (Exception e) {
        last = e;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no " + what + " within " + START.toSeconds() + "s", last);
  }

  /** The console's page as the image's console jar holds it. */
  private static String consoleIndex() throws IOException {
    String version = System.getProperty("project.version", "0.1.0-SNAPSHOT");
    try (ZipFile zip = new ZipFile(UnpackedImage.file("/app/libs/tributary-console-ui-" + version + ".jar").toFile());
        InputStream in = zip.getInputStream(zip.getEntry("META-INF/tributary-console/index.html"))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static boolean ownedByTheImagesUser(Path p) throws IOException {
    String user = UnpackedImage.tarball().config().get("config").get("User").asText();
    return String.valueOf(Files.getAttribute(p, "unix:uid")).equals(user.split(":")[0]);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ImageRunIT.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
