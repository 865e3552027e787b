package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests are read strictly and answered as the contract says: one JSON document per body, 413
 * for any oversized body (also one of 8 MiB, which must not drop the connection), a filter must be
 * a condition, actions answer 202, events come newest first, and every pointer into a spec starts
 * with {@code /spec}.
 */
class StrictRequestsIT {
  @TempDir
  static Path dir;

  static TributaryServer server;

  @BeforeAll
  static void start() {
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> put(String name, String body) throws Exception {
    return ServerTests.send(server, "PUT", "/v1/projects/default/jobs/" + name, ServerTests.ADMIN, body);
  }

  @Test
  void aBodyIsOneJsonDocumentAndNothingAfterIt() throws Exception {
    String good = Attacks.body(ServerTests.trickle("strict", 1));
    for (String bad : List.of(good + "garbage", good + good, good + " {}", good + "]", good + "\n\"x\"")) {
      Attacks.refused(put("strict", bad), 400, null);
      Attacks.refused(ServerTests.send(server, "POST", "/v1/projects/default/plans", ServerTests.ADMIN, bad), 400, null);
    }
    assertThat(Attacks.jobs(server, "default")).doesNotContain("strict");
    assertThat(put("strict", good + "\n  \t").statusCode()).as("white space after it is fine").isEqualTo(201);
    ServerTests.send(server, "DELETE", "/v1/projects/default/jobs/strict", ServerTests.ADMIN, null);
  }

  @Test
  void everyOversizedBodyIs413() throws Exception {
    for (int mib : new int[] {2, 8}) {
      String huge = "{\"spec\":{\"name\":\"big\",\"pad\":\"" + "x".repeat(mib * 1024 * 1024) + "\"}}";
      JsonNode p = Attacks.refused(put("big", huge), 413, null);
      assertThat(p.path("type").asText()).isEqualTo("urn:tributary:problem:payload-too-large");
    }
    assertThat(Attacks.jobs(server, "default")).doesNotContain("big");
  }

  @Test
  void aFilterMustBeACondition() throws Exception {
    String spec = ServerTests.trickle("typed", 1).replace("{id: by-key, input: numbers, keyBy: [id]}",
        "{id: by-key, input: numbers, filter: \"value + 1\"}");
    JsonNode p = Attacks.refused(put("typed", Attacks.body(spec)), 400, "/spec/operators/0/filter");
    assertThat(p.toString()).contains("BOOLEAN");
    assertThat(Attacks.jobs(server, "default")).doesNotContain("typed");
  }

  @Test
  void actionsAnswer202AndEventsComeNewestFirst() throws Exception {
    assertThat(put("acts", Attacks.body(ServerTests.trickle("acts", 1))).statusCode()).isEqualTo(201);
    Attacks.await(server, "default", "acts", j -> j.path("observedState").asText().equals("running")
        && j.hasNonNull("lastCheckpoint"));
    HttpResponse<String> savepoint = ServerTests.send(server, "POST", "/v1/projects/default/jobs/acts/savepoints",
        ServerTests.ADMIN, null);
    assertThat(savepoint.statusCode()).as(savepoint.body()).isEqualTo(202);
    HttpResponse<String> stop = ServerTests.send(server, "POST", "/v1/projects/default/jobs/acts/stop",
        ServerTests.ADMIN, "{}");
    assertThat(stop.statusCode()).as(stop.body()).isEqualTo(202);
    JsonNode events = Attacks.JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/default/jobs/acts/events",
        ServerTests.ADMIN, null).body()).path("items");
    List<Long> sequences = new ArrayList<>();
    events.forEach(e -> sequences.add(e.path("sequence").asLong()));
    assertThat(sequences).hasSizeGreaterThan(2).isSortedAccordingTo((a, b) -> Long.compare(b, a));
    ServerTests.send(server, "DELETE", "/v1/projects/default/jobs/acts", ServerTests.ADMIN, null);
  }

  @Test
  void pointersIntoASpecStartWithSpec() throws Exception {
    String[] specs = {"{\"spec\": {}}", "{\"spec\": {\"name\": 7}}", "{\"spec\": \"text\"}", "{\"spec\": null}",
        "{\"spec\": {\"name\": \"p\", \"sources\": {\"s\": {\"type\": \"file\"}}, \"sinks\": {}}}",
        Attacks.body(ServerTests.trickle("p", 1).replace("maxRecordsPerSecond: 50", "maxRecordsPerSecond: -1"))};
    for (String body : specs) {
      for (String method : new String[] {"PUT", "POST"}) {
        String path = method.equals("PUT") ? "/v1/projects/default/jobs/p" : "/v1/projects/default/plans";
        HttpResponse<String> r = ServerTests.send(server, method, path, ServerTests.ADMIN, body);
        JsonNode p = Attacks.refused(r, 400, null);
        for (String pointer : p.findValuesAsText("pointer")) {
          assertThat(pointer).as(r.body()).startsWith("/spec");
        }
      }
    }
  }
}
