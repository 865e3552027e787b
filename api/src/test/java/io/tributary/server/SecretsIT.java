package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No names or secrets for the asking: {@code /metrics} needs the administrator or the metrics
 * token; the metadata store holds no unkeyed hash of any token (so a copy of it allows no offline
 * guess); weak and short administrator tokens are refused with one line, except weak ones in dev
 * mode.
 */
class SecretsIT {
  static final String METRICS = "metrics-scraper-token-0123456789";

  @TempDir
  Path dir;

  static String sha256(String s) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void metricsNeedTheAdministratorOrTheMetricsToken() throws Exception {
    try (TributaryServer server = ServerTests.start(ServerTests.config(dir.resolve("data"), dir.resolve("files"))
        .withMetricsToken(METRICS))) {
      String editor = Attacks.project(server, "team-a", "editor");
      assertThat(ServerTests.send(server, "PUT", "/v1/projects/team-a/jobs/secret-name", editor,
          Attacks.body(ServerTests.trickle("secret-name", 1))).statusCode()).isEqualTo(201);
      assertThat(ServerTests.send(server, "GET", "/metrics", null, null).statusCode()).isEqualTo(401);
      assertThat(ServerTests.send(server, "GET", "/metrics", editor, null).statusCode()).isEqualTo(403);
      assertThat(ServerTests.send(server, "GET", "/metrics", ServerTests.ADMIN, null).statusCode()).isEqualTo(200);
      var scraped = ServerTests.send(server, "GET", "/metrics", METRICS, null);
      assertThat(scraped.statusCode()).isEqualTo(200);
      assertThat(scraped.body()).contains("# TYPE");
      assertThat(ServerTests.send(server, "GET", "/v1/projects/team-a/jobs", METRICS, null).statusCode())
          .as("the metrics token reads nothing else").isEqualTo(403);
      assertThat(ServerTests.send(server, "GET", "/health", null, null).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void theStoreHoldsOnlyKeyedHashesOfTokens() throws Exception {
    String editor;
    try (TributaryServer server = ServerTests.start(dir.resolve("data"), dir.resolve("files"))) {
      editor = Attacks.project(server, "team-a", "editor");
    }
    byte[] log = Files.readAllBytes(dir.resolve("data/metadata/metadata.log"));
    String text = new String(log, StandardCharsets.ISO_8859_1);
    assertThat(text).doesNotContain(sha256(ServerTests.ADMIN)).doesNotContain(sha256(editor))
        .doesNotContain(editor).doesNotContain(ServerTests.ADMIN);
    assertThat(dir.resolve("data/secrets/token.key")).exists();
    try (TributaryServer again = ServerTests.start(dir.resolve("data"), dir.resolve("files"))) {
      assertThat(ServerTests.send(again, "GET", "/v1/projects/team-a/jobs", editor, null).statusCode())
          .as("tokens survive a restart").isEqualTo(200);
    }
  }

  @Test
  void shortAndWeakAdministratorTokensAreRefusedWithOneLine() {
    assertThatThrownBy(() -> ServerTests.start(new TributaryServer.Config(dir.resolve("d1"), 0, "short",
        java.util.List.of(dir.resolve("f1")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("TRIBUTARY_ADMIN_TOKEN is too short (5 characters)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("Exception"));
    TributaryServer.Config everywhere = ServerTests.config(dir.resolve("d2"), dir.resolve("f2")).withHost("0.0.0.0");
    assertThatThrownBy(() -> ServerTests.start(everywhere))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("TRIBUTARY_ADMIN_TOKEN is weak");
    try (TributaryServer dev = ServerTests.start(everywhere.withDevMode(true))) {
      assertThat(dev.warnings()).singleElement().asString().contains("weak");
    }
    try (TributaryServer loopback = ServerTests.start(ServerTests.config(dir.resolve("d3"), dir.resolve("f3")))) {
      assertThat(loopback.warnings()).as("loopback only is dev mode").singleElement().asString().contains("weak");
    }
  }
}
