package io.tributary.cloud;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One control-plane replica of the cloud tests: {@code tributary server} as its own process (this
 * JVM's classpath), on a fixed port so that a restart keeps its URL, with one local worker process
 * of its own (or, {@code external}, a fixed worker port that worker processes the test starts
 * register at), on the shared stores of a configuration file. Restarted on a new, empty data
 * directory every time.
 */
final class Replica {
  static final String ADMIN = "cloud-ha-it-admin-token-0123456789abcdef";
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  static final String CLUSTER_SECRET = "cloud-ha-it-cluster-secret-0123456789";

  final String name;
  final int port;
  /** The worker port, for {@code external} workers. */
  final int workerPort;
  private final boolean external;
  private final Path config;
  private final Path dir;
  private final Map<String, String> env;
  private final List<String> extra;
  private Process process;
  private int starts;

  /** @param extra more options of {@code tributary server} */
  Replica(String name, Path config, Path dir, Map<String, String> env, List<String> extra) {
    this(name, config, dir, env, extra, false);
  }

  /**
   * @param extra more options of {@code tributary server}
   * @param external whether its workers are external processes ({@code --workers external})
   */
  Replica(String name, Path config, Path dir, Map<String, String> env, List<String> extra, boolean external) {
    this.name = name;
    this.external = external;
    this.workerPort = freePort();
    this.extra = List.copyOf(extra);
    this.port = freePort();
    this.config = config;
    this.dir = dir;
    this.env = env;
  }

  /** Starts the server process on a new data directory. */
  void start() {
    starts++;
    Path data = dir.resolve(name + "-" + starts);
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main", "server",
        "--port", String.valueOf(port), "--data-dir", data.toString(), "--config", config.toString()));
    cmd.addAll(external ? List.of("--workers", "external", "--worker-port", String.valueOf(workerPort))
        : List.of("--workers", "local:1", "--worker-slots", "4"));
    cmd.addAll(extra);
    try {
      Files.createDirectories(dir);
      ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
      b.environment().putAll(env);
      b.environment().put("TRIBUTARY_ADMIN_TOKEN", ADMIN);
      b.environment().put("TRIBUTARY_CLUSTER_SECRET", CLUSTER_SECRET);
      b.environment().put("TRIBUTARY_WORKER_JAVA_OPTS", "-Xmx384m");
      b.environment().put("TRIBUTARY_QUOTA_MIN_CHECKPOINT_INTERVAL", "100ms");
      process = b.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code kill -9} of the server (its worker process stops with it). */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  Path log() {
    return dir.resolve(name + ".log");
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The role {@code GET /health} reports, or null if the replica does not answer. */
  String role() {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/health"))
          .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? JSON.readTree(r.body()).path("role").asText(null) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** A request with the administrator token; {@code body} null for none. */
  HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + ADMIN);
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {@code GET path} as JSON, or null unless it answers 200. */
  JsonNode get(String path) {
    try {
      HttpResponse<String> r = send("GET", path, null);
      return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
