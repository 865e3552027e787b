package io.tributary.server;

import io.tributary.client.ApiClient;
import io.tributary.boot.ControlTests;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import io.tributary.scheduler.policy.Quotas;

/** Servers, clients and specs the server tests share. */
final class ServerTests {
  static final String ADMIN = ApiServerIT.ADMIN;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private ServerTests() {}

  /** The default quotas, but checkpoints as often as the tests' jobs take them (every 200 ms). */
  static final Quotas QUOTAS = Quotas.DEFAULTS.withMinCheckpointInterval(Duration.ofMillis(100));

  /**
   * A server on a free port over {@code data}; file sources and sinks of project {@code p} may use
   * {@code files/p}.
   */
  static TributaryServer start(Path data, Path files) {
    return start(config(data, files));
  }

  static TributaryServer.Config config(Path data, Path files) {
    return new TributaryServer.Config(data, 0, ADMIN, List.of(files)).withQuotas(QUOTAS);
  }

  static TributaryServer start(TributaryServer.Config config) {
    return TributaryServer.start(config, ControlTests.settings());
  }

  /** A generated client whose every response is checked against the contract ({@link Contract}). */
  static ApiClient client(TributaryServer server, String token) {
    ApiClient c = new ApiClient(ContractHttpClient.builder(), ApiClient.createDefaultObjectMapper(),
        server.url().toString());
    c.setRequestInterceptor(b -> b.header("Authorization", "Bearer " + token));
    c.setReadTimeout(Duration.ofSeconds(60));
    return c;
  }

  /** A job that runs until stopped and costs little: 50 numbers a second into a blackhole. */
  static String trickle(String name, int parallelism) {
    return ControlTests.trickle(name, String.valueOf(parallelism));
  }

  /** A raw request, for what the generated client would refuse to send. */
  static HttpResponse<String> send(TributaryServer server, String method, String path, String token, String body,
      String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    Contract.check(method, r.uri(), r.statusCode(), r.headers().firstValue("content-type").orElse(null), r.body());
    return r;
  }
}
