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

/** Servers, clients and specs the server tests share. */
final class ServerTests {
  static final String ADMIN = ApiServerIT.ADMIN;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private ServerTests() {}

  /** A server on a free port over {@code data}; file sources and sinks may use {@code files}. */
  static TributaryServer start(Path data, Path files) {
    return TributaryServer.start(new TributaryServer.Config(data, 0, ADMIN, List.of(files)),
        ControlTests.settings());
  }

  static ApiClient client(TributaryServer server, String token) {
    ApiClient c = new ApiClient();
    c.updateBaseUri(server.url().toString());
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
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
