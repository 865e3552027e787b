package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every class of bad input gets its 4xx with a problem body that names what to fix, and leaves
 * nothing behind: after each refused request the project still has no job.
 */
class BadInputIT {
  static final ObjectMapper JSON = new ObjectMapper();

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

  static String body(String specYaml) throws Exception {
    JsonNode spec = ApiServerIT.YAML.readTree(specYaml);
    return JSON.createObjectNode().set("spec", spec).toString();
  }

  static JsonNode problem(HttpResponse<String> r, int status) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("content-type")).hasValue("application/problem+json");
    JsonNode p = JSON.readTree(r.body());
    assertThat(p.path("type").asText()).startsWith("urn:tributary:problem:");
    assertThat(p.path("status").asInt()).isEqualTo(status);
    assertThat(p.path("detail").asText()).isNotBlank().doesNotContain("Exception").doesNotContain("\tat ");
    return p;
  }

  static void nothingStored() throws Exception {
    JsonNode list = JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/default/jobs", ServerTests.ADMIN,
        null).body());
    assertThat(list.path("items")).isEmpty();
  }

  static HttpResponse<String> put(String name, String body) throws Exception {
    return ServerTests.send(server, "PUT", "/v1/projects/default/jobs/" + name, ServerTests.ADMIN, body);
  }

  @Test
  void anInvalidSpecListsEveryErrorWithItsPointer() throws Exception {
    String spec = ServerTests.trickle("bad", 1).replace("keyBy: [id]}", "keyBy: [id], window: {type: tumbling}}")
        .replace("input: by-key", "input: nowhere");
    JsonNode p = problem(put("bad", body(spec)), 400);
    assertThat(p.path("type").asText()).isEqualTo("urn:tributary:problem:invalid-spec");
    assertThat(p.findValuesAsText("pointer")).contains("/spec/operators/0/window/size", "/spec/sinks/out/input");
    nothingStored();
  }

  @Test
  void aSpecNamingAnotherJobIsRefusedAtSpecName() throws Exception {
    JsonNode p = problem(put("other", body(ServerTests.trickle("bad", 1))), 400);
    assertThat(p.findValuesAsText("pointer")).containsExactly("/spec/name");
    nothingStored();
  }

  @Test
  void unknownFieldsAndWrongTypes() throws Exception {
    String good = body(ServerTests.trickle("bad", 1));
    JsonNode unknownTop = problem(put("bad", good.replaceFirst("\\{", "{\"colour\":\"red\",")), 400);
    assertThat(unknownTop.path("detail").asText()).contains("colour");
    JsonNode unknownInSpec = problem(put("bad", good.replace("\"parallelism\":1", "\"parallelism\":1,\"speed\":9")), 400);
    assertThat(unknownInSpec.findValuesAsText("pointer")).contains("/spec/speed");
    JsonNode wrongType = problem(put("bad", good.replace("\"parallelism\":1", "\"parallelism\":\"many\"")), 400);
    assertThat(wrongType.findValuesAsText("pointer")).contains("/spec/parallelism");
    JsonNode wrongDesired = problem(put("bad", good.replaceFirst("\\{", "{\"desiredState\":\"FAST\",")), 400);
    assertThat(wrongDesired.path("detail").asText()).contains("desiredState");
    assertThat(wrongDesired.findValuesAsText("pointer")).containsExactly("/desiredState");
    JsonNode nested = problem(put("bad", good.replaceFirst("\\{", "{\"restorePolicy\":{\"from\":\"yesterday\"},")), 400);
    assertThat(nested.findValuesAsText("pointer")).containsExactly("/restorePolicy/from");
    JsonNode nestedUnknown = problem(put("bad",
        good.replaceFirst("\\{", "{\"restorePolicy\":{\"from\":\"latest\",\"when\":1},")), 400);
    assertThat(nestedUnknown.findValuesAsText("pointer")).containsExactly("/restorePolicy/when");
    nothingStored();
  }

  @Test
  void malformedJsonAndMissingBody() throws Exception {
    JsonNode cut = problem(put("bad", "{\"spec\": {"), 400);
    assertThat(cut.get("detail").asText()).contains("at line 1, column ").doesNotContain("Source");
    problem(put("bad", "[]"), 400);
    JsonNode noSpec = problem(put("bad", "{}"), 400);
    assertThat(noSpec.toString()).contains("spec");
    nothingStored();
  }

  @Test
  void anOversizedBodyIs413() throws Exception {
    String huge = "{\"spec\":{\"name\":\"bad\",\"pad\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}}";
    problem(put("bad", huge), 413);
    nothingStored();
  }

  @Test
  void namesThatAreNotDnsLabels() throws Exception {
    JsonNode p = problem(put("Bad_Name", body(ServerTests.trickle("Bad_Name", 1))), 400);
    assertThat(p.findValuesAsText("pointer")).contains("/name");
    JsonNode upper = problem(ServerTests.send(server, "GET", "/v1/projects/UPPER/jobs", ServerTests.ADMIN, null), 400);
    assertThat(upper.get("detail").asText()).isEqualTo("/project: 'UPPER' is not a DNS label: use at most 63"
        + " lower-case letters, digits and '-', starting and ending with a letter or digit");
    problem(put("a".repeat(64), body(ServerTests.trickle("a".repeat(64), 1))), 400);
    nothingStored();
  }

  @Test
  void filePathsOutsideTheAllowedRoots() throws Exception {
    String spec = ServerTests.trickle("files", 1)
        .replace("out: {input: by-key, type: blackhole}", "out: {input: by-key, type: file, path: /etc/tributary}");
    JsonNode p = problem(put("files", body(spec)), 400);
    assertThat(p.findValuesAsText("pointer")).containsExactly("/spec/sinks/out/path");
    String escape = spec.replace("/etc/tributary", dir.resolve("files").resolve("../../escaped").toString());
    problem(put("files", body(escape)), 400);
    String otherProject = spec.replace("/etc/tributary", dir.resolve("files").resolve("team-b").resolve("out").toString());
    problem(put("files", body(otherProject)), 400);
    String relative = spec.replace("/etc/tributary", "out/relative");
    assertThat(put("files", body(relative)).statusCode()).isEqualTo(201);
    ServerTests.send(server, "DELETE", "/v1/projects/default/jobs/files", ServerTests.ADMIN, null);
    String inside = spec.replace("/etc/tributary", dir.resolve("files").resolve("default").resolve("out").toString());
    assertThat(put("files", body(inside)).statusCode()).isEqualTo(201);
    ServerTests.send(server, "DELETE", "/v1/projects/default/jobs/files", ServerTests.ADMIN, null);
    nothingStored();
  }

  @Test
  void aRescaleOfStagesNamesTheStageThatIsWrong() throws Exception {
    String spec = io.tributary.boot.ControlTests.trickle("stages", "{initial: 1, min: 1, max: 2}");
    assertThat(put("stages", body(spec)).statusCode()).isEqualTo(201);
    try {
      refusedRescalesOfStages("/v1/projects/default/jobs/stages/rescale");
    } finally {
      ServerTests.send(server, "DELETE", "/v1/projects/default/jobs/stages", ServerTests.ADMIN, null);
    }
    nothingStored();
  }

  private static void refusedRescalesOfStages(String rescale) throws Exception {
    JsonNode unknown = problem(ServerTests.send(server, "POST", rescale, ServerTests.ADMIN,
        "{\"stages\": {\"nowhere\": 2}}"), 400);
    assertThat(unknown.findValuesAsText("pointer")).containsExactly("/stages/nowhere");
    assertThat(unknown.path("detail").asText()).contains("no operator 'nowhere'");
    JsonNode neither = problem(ServerTests.send(server, "POST", rescale, ServerTests.ADMIN, "{}"), 400);
    assertThat(neither.findValuesAsText("pointer")).containsExactly("/parallelism");
    problem(ServerTests.send(server, "POST", rescale, ServerTests.ADMIN, "{\"stages\": {\"by-key\": \"two\"}}"), 400);
    JsonNode beyond = problem(ServerTests.send(server, "POST", rescale, ServerTests.ADMIN,
        "{\"stages\": {\"out\": 3}}"), 400);
    assertThat(beyond.findValuesAsText("pointer")).containsExactly("/stages/out");
    assertThat(beyond.path("detail").asText()).contains("max 2");
  }

  @Test
  void unknownProjectsJobsAndRoutes() throws Exception {
    JsonNode p = problem(ServerTests.send(server, "PUT", "/v1/projects/ghost/jobs/x", ServerTests.ADMIN,
        body(ServerTests.trickle("x", 1))), 404);
    assertThat(p.path("detail").asText()).contains("ghost");
    problem(ServerTests.send(server, "GET", "/v1/projects/default/jobs/ghost", ServerTests.ADMIN, null), 404);
    problem(ServerTests.send(server, "GET", "/v1/nothing-here", ServerTests.ADMIN, null), 404);
    problem(ServerTests.send(server, "POST", "/v1/projects/default/jobs/ghost/rescale", ServerTests.ADMIN,
        "{\"parallelism\": 0}"), 400);
    problem(ServerTests.send(server, "GET", "/v1/projects/default/jobs?pageSize=100000", ServerTests.ADMIN, null), 400);
    JsonNode token = problem(ServerTests.send(server, "GET", "/v1/projects/default/jobs?pageToken=garbage",
        ServerTests.ADMIN, null), 400);
    assertThat(token.path("detail").asText()).isEqualTo("pageToken: not a page token of this list: garbage");
    assertThat(token.path("errors").get(0).path("pointer").asText()).isEqualTo("/pageToken");
    assertThat(token.path("errors").get(0).path("message").asText()).isEqualTo("not a page token of this list: garbage");
  }
}
