package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

/** What the attack ITs share: an editor of one project sending raw requests, and checks of the answers. */
final class Attacks {
  static final ObjectMapper JSON = new ObjectMapper();

  private Attacks() {}

  /** Creates {@code project} and a token of {@code role} in it; returns the secret. */
  static String project(TributaryServer server, String project, String role) throws Exception {
    HttpResponse<String> p = ServerTests.send(server, "POST", "/v1/projects", ServerTests.ADMIN,
        "{\"name\":\"" + project + "\"}");
    assertThat(p.statusCode()).as(p.body()).isIn(201, 409);
    HttpResponse<String> t = ServerTests.send(server, "POST", "/v1/projects/" + project + "/tokens", ServerTests.ADMIN,
        "{\"name\":\"" + role + "-" + System.nanoTime() + "\",\"role\":\"" + role + "\"}");
    assertThat(t.statusCode()).as(t.body()).isEqualTo(201);
    return JSON.readTree(t.body()).path("secret").asText();
  }

  /** The body of an apply or plan of the YAML spec {@code yaml}. */
  static String body(String yaml) throws Exception {
    return BadInputIT.body(yaml);
  }

  /** Asserts a problem of {@code status} naming {@code pointer}; returns it. */
  static JsonNode refused(HttpResponse<String> r, int status, String pointer) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("content-type")).hasValue("application/problem+json");
    JsonNode p = JSON.readTree(r.body());
    if (pointer != null) {
      assertThat(p.findValuesAsText("pointer")).as(r.body()).contains(pointer);
    }
    assertThat(p.path("detail").asText()).doesNotContain("Exception").doesNotContain("\tat ");
    return p;
  }

  /** The project's job names. */
  static java.util.List<String> jobs(TributaryServer server, String project) throws Exception {
    JsonNode list = JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/" + project + "/jobs?pageSize=500",
        ServerTests.ADMIN, null).body());
    java.util.List<String> names = new java.util.ArrayList<>();
    list.path("items").forEach(j -> names.add(j.path("name").asText()));
    return names;
  }

  /** Polls the job until {@code until} holds (60 s at most); returns it. */
  static JsonNode await(TributaryServer server, String project, String name, Predicate<JsonNode> until)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    JsonNode j = JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/" + project + "/jobs/" + name,
        ServerTests.ADMIN, null).body());
    while (!until.test(j)) {
      assertThat(System.nanoTime()).as("job %s: %s", name, j).isLessThan(deadline);
      Thread.sleep(20); // polling interval of a condition with a deadline
      j = JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/" + project + "/jobs/" + name,
          ServerTests.ADMIN, null).body());
    }
    return j;
  }
}
