package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tokens: a token of project A can neither read nor change anything in project B; roles limit what a
 * token may do in its own project; revoked and unknown tokens are refused; secrets are never listed.
 */
class SecurityIT {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path dir;

  static TributaryServer server;
  static String editorA;
  static String viewerA;
  static String editorB;

  @BeforeAll
  static void start() throws Exception {
    server = ServerTests.start(dir.resolve("data"), dir.resolve("files"));
    for (String p : List.of("team-a", "team-b")) {
      assertThat(send("POST", "/v1/projects", ServerTests.ADMIN, "{\"name\":\"" + p + "\"}").statusCode()).isEqualTo(201);
    }
    editorA = token("team-a", "ci", "editor");
    viewerA = token("team-a", "dashboards", "viewer");
    editorB = token("team-b", "ci", "editor");
    assertThat(send("PUT", "/v1/projects/team-b/jobs/secret", editorB, BadInputIT.body(ServerTests.trickle("secret", 1)))
        .statusCode()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
    return ServerTests.send(server, method, path, token, body);
  }

  static String token(String project, String name, String role) throws Exception {
    HttpResponse<String> r = send("POST", "/v1/projects/" + project + "/tokens", ServerTests.ADMIN,
        "{\"name\":\"" + name + "\",\"role\":\"" + role + "\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return JSON.readTree(r.body()).path("secret").asText();
  }

  static void forbidden(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
    assertThat(r.body()).doesNotContain("\"spec\"").doesNotContain("\"items\"")
        .contains("urn:tributary:problem:forbidden");
  }

  @Test
  void aTokenOfProjectACannotReadProjectB() throws Exception {
    forbidden(send("GET", "/v1/projects/team-b", editorA, null));
    forbidden(send("GET", "/v1/projects/team-b/jobs", editorA, null));
    forbidden(send("GET", "/v1/projects/team-b/jobs/secret", editorA, null));
    forbidden(send("GET", "/v1/projects/team-b/jobs/no-such-job", editorA, null)); // existence does not leak
    forbidden(send("GET", "/v1/projects/team-b/jobs/secret/events", editorA, null));
    forbidden(send("GET", "/v1/projects/team-b/jobs/secret/savepoints", editorA, null));
    forbidden(send("GET", "/v1/projects/team-b/jobs/secret/checkpoints", editorA, null));
    forbidden(send("GET", "/v1/projects/team-b/jobs/secret/metrics", editorA, null));
    forbidden(send("GET", "/v1/projects/team-b/tokens", editorA, null));
    JsonNode projects = JSON.readTree(send("GET", "/v1/projects", editorA, null).body());
    assertThat(projects.path("items")).extracting(p -> p.path("name").asText()).containsExactly("team-a");
  }

  @Test
  void aTokenOfProjectACannotChangeProjectB() throws Exception {
    forbidden(send("PUT", "/v1/projects/team-b/jobs/secret", editorA, BadInputIT.body(ServerTests.trickle("secret", 2))));
    forbidden(send("PUT", "/v1/projects/team-b/jobs/planted", editorA, BadInputIT.body(ServerTests.trickle("planted", 1))));
    forbidden(send("POST", "/v1/projects/team-b/jobs/secret/stop", editorA, "{}"));
    forbidden(send("POST", "/v1/projects/team-b/jobs/secret/rescale", editorA, "{\"parallelism\":2}"));
    forbidden(send("POST", "/v1/projects/team-b/jobs/secret/savepoints", editorA, null));
    forbidden(send("DELETE", "/v1/projects/team-b/jobs/secret", editorA, null));
    forbidden(send("POST", "/v1/projects/team-b/tokens", editorA, "{\"name\":\"x\",\"role\":\"admin\"}"));
    forbidden(send("POST", "/v1/projects", editorA, "{\"name\":\"team-c\"}"));
    forbidden(send("DELETE", "/v1/projects/team-b", editorA, null));
    JsonNode job = JSON.readTree(send("GET", "/v1/projects/team-b/jobs/secret", editorB, null).body());
    assertThat(job.path("version").asLong()).isEqualTo(1);
    assertThat(job.path("spec").path("parallelism").asInt()).isEqualTo(1);
    JsonNode jobs = JSON.readTree(send("GET", "/v1/projects/team-b/jobs", editorB, null).body());
    assertThat(jobs.path("items")).extracting(j -> j.path("name").asText()).containsExactly("secret");
  }

  @Test
  void rolesLimitWhatATokenMayDoInItsProject() throws Exception {
    assertThat(send("GET", "/v1/projects/team-a/jobs", viewerA, null).statusCode()).isEqualTo(200);
    forbidden(send("PUT", "/v1/projects/team-a/jobs/x", viewerA, BadInputIT.body(ServerTests.trickle("x", 1))));
    forbidden(send("GET", "/v1/projects/team-a/tokens", editorA, null));
    JsonNode listed = JSON.readTree(send("GET", "/v1/projects/team-a/tokens", ServerTests.ADMIN, null).body());
    assertThat(listed.findValuesAsText("name")).contains("ci", "dashboards");
    assertThat(listed.toString()).doesNotContain(editorA).doesNotContain(viewerA).doesNotContain("\"secret\"");
  }

  @Test
  void unknownMissingAndRevokedTokensAre401() throws Exception {
    HttpResponse<String> none = send("GET", "/v1/projects/team-a/jobs", null, null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("www-authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    assertThat(send("GET", "/v1/projects/team-a/jobs", "trb_forged-token-000000000000", null).statusCode()).isEqualTo(401);

    String temp = token("team-a", "temporary", "viewer");
    assertThat(send("GET", "/v1/projects/team-a/jobs", temp, null).statusCode()).isEqualTo(200);
    JsonNode listed = JSON.readTree(send("GET", "/v1/projects/team-a/tokens", ServerTests.ADMIN, null).body());
    String id = null;
    for (JsonNode t : listed.path("items")) {
      if (t.path("name").asText().equals("temporary")) {
        id = t.path("id").asText();
      }
    }
    assertThat(send("DELETE", "/v1/projects/team-a/tokens/" + id, ServerTests.ADMIN, null).statusCode()).isEqualTo(204);
    assertThat(send("GET", "/v1/projects/team-a/jobs", temp, null).statusCode()).isEqualTo(401);
  }

  @Test
  void healthNeedsNoToken() throws Exception {
    HttpResponse<String> r = send("GET", "/health", null, null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(r.body()).path("status").asText()).isEqualTo("UP");
  }
}
