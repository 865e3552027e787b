package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.scheduler.policy.Quotas;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One editor tries to take more than its project's share: more jobs and tokens than its quota, more
 * total parallelism, a checkpoint interval below the minimum, a source faster than the maximum.
 * Each is refused (429 for counted resources, 409 for bounds on a spec's values) with a problem
 * naming the quota, and nothing is stored beyond what the quota allows.
 */
class QuotasIT {
  @TempDir
  static Path dir;

  static TributaryServer server;
  static String editor;

  @BeforeAll
  static void start() throws Exception {
    Quotas q = new Quotas(3, 3, 3, Duration.ofSeconds(1), 1_000);
    server = ServerTests.start(ServerTests.config(dir.resolve("data"), dir.resolve("files")).withQuotas(q));
    editor = Attacks.project(server, "team-a", "editor"); // token 1 of 3
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static String job(String name, int parallelism, String extra) {
    return """
        name: %s
        parallelism: {initial: %d, max: 4}
        checkpoints: {interval: 2s}
        sources:
          s: {type: datagen, maxRecordsPerSecond: 10%s}
        sinks:
          out: {input: s, type: blackhole}
        """.formatted(name, parallelism, extra);
  }

  static HttpResponse<String> put(String name, String spec, boolean stopped) throws Exception {
    String body = Attacks.body(spec);
    if (stopped) {
      body = body.replaceFirst("\\{", "{\"desiredState\":\"STOPPED\",");
    }
    return ServerTests.send(server, "PUT", "/v1/projects/team-a/jobs/" + name, editor, body);
  }

  static void quota(HttpResponse<String> r, int status, String quota) throws Exception {
    JsonNode p = Attacks.refused(r, status, null);
    assertThat(p.path("type").asText()).isEqualTo("urn:tributary:problem:quota-exceeded");
    assertThat(p.path("quota").path("name").asText()).isEqualTo(quota);
    assertThat(p.path("retryable").asBoolean()).isFalse();
  }

  @Test
  void specValuesBeyondTheBoundsAre409() throws Exception {
    quota(put("fast", job("fast", 1, "").replace("interval: 2s", "interval: 1ms"), false), 409, "minCheckpointInterval");
    quota(put("fast", job("fast", 1, "").replace("maxRecordsPerSecond: 10", "maxRecordsPerSecond: 1e18"), false), 409,
        "maxRecordsPerSecond");
    String nexmark = job("fast", 1, "").replace("type: datagen, maxRecordsPerSecond: 10", "type: nexmark, eventRate: 5000000");
    quota(ServerTests.send(server, "POST", "/v1/projects/team-a/plans", editor, Attacks.body(nexmark)), 409,
        "maxRecordsPerSecond");
    assertThat(Attacks.jobs(server, "team-a")).doesNotContain("fast");
  }

  @Test
  void countedResourcesBeyondTheQuotaAre429() throws Exception {
    assertThat(put("a", job("a", 2, ""), false).statusCode()).isEqualTo(201);
    quota(put("b", job("b", 2, ""), false), 429, "parallelism"); // 2 + 2 > 3
    assertThat(put("b", job("b", 2, ""), true).statusCode()).as("stopped jobs use no parallelism").isEqualTo(201);
    quota(ServerTests.send(server, "POST", "/v1/projects/team-a/jobs/b/resume", editor, "{\"from\":\"latest\"}"), 429, "parallelism");
    quota(ServerTests.send(server, "POST", "/v1/projects/team-a/jobs/a/rescale", editor, "{\"parallelism\":4}"), 429,
        "parallelism");
    assertThat(put("c", job("c", 1, ""), true).statusCode()).isEqualTo(201);
    quota(put("d", job("d", 1, ""), true), 429, "jobs");
    assertThat(Attacks.jobs(server, "team-a")).containsExactly("a", "b", "c");

    for (int i = 0; i < 2; i++) {
      assertThat(ServerTests.send(server, "POST", "/v1/projects/team-a/tokens", ServerTests.ADMIN,
          "{\"name\":\"t" + i + "\",\"role\":\"viewer\"}").statusCode()).isEqualTo(201);
    }
    quota(ServerTests.send(server, "POST", "/v1/projects/team-a/tokens", ServerTests.ADMIN,
        "{\"name\":\"one-too-many\",\"role\":\"viewer\"}"), 429, "tokens");
    JsonNode tokens = Attacks.JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/team-a/tokens",
        ServerTests.ADMIN, null).body());
    assertThat(tokens.path("items").size()).isEqualTo(3);
  }
}
