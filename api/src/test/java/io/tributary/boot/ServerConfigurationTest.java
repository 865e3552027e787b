package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigurationTest {
  @TempDir
  Path dir;

  @Test
  void nothingConfiguredKeepsTheEmbeddedDefaults() {
    ServerConfiguration c = ServerConfiguration.load(null, Map.of());
    assertThat(c.shared()).isFalse();
    assertThat(c.objectStore()).isNull();
    assertThat(c.leaseTime()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c).isEqualTo(ServerConfiguration.defaults());
  }

  @Test
  void aFileNamesTheStoresNestedOrFlatAndTheEnvironmentWins() throws Exception {
    Path file = write("""
        tributary:
          object-store: s3://bucket/prefix
          s3: {endpoint: "http://127.0.0.1:9000", path-style: true}
          metadata.dynamodb:
            table: from-file
            endpoint: http://127.0.0.1:8000
          leader: {lease-time: 3s}
        """);
    ServerConfiguration c = ServerConfiguration.load(file, Map.of("TRIBUTARY_METADATA_DYNAMODB_TABLE", "from-env",
        "AWS_REGION", "eu-west-1"));
    assertThat(c.objectStore()).isEqualTo("s3://bucket/prefix");
    assertThat(c.s3()).containsEntry("TRIBUTARY_S3_ENDPOINT", "http://127.0.0.1:9000")
        .containsEntry("TRIBUTARY_S3_PATH_STYLE", "true").containsEntry("AWS_REGION", "eu-west-1");
    assertThat(c.shared()).as("a named table selects DynamoDB").isTrue();
    assertThat(c.dynamo().orElseThrow().table()).isEqualTo("from-env");
    assertThat(c.dynamo().orElseThrow().endpoint()).contains(URI.create("http://127.0.0.1:8000"));
    assertThat(c.dynamo().orElseThrow().region()).contains("eu-west-1");
    assertThat(c.leaseTime()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void environmentVariablesFollowMicronautsNaming() {
    assertThat(ServerConfiguration.envName("tributary.metadata.dynamodb.create-table"))
        .isEqualTo("TRIBUTARY_METADATA_DYNAMODB_CREATE_TABLE");
    ServerConfiguration c = ServerConfiguration.load(null, Map.of("TRIBUTARY_OBJECT_STORE", "/mnt/state",
        "TRIBUTARY_TOKEN_KEY", "a2V5"));
    assertThat(c.objectStore()).isEqualTo("/mnt/state");
    assertThat(c.tokenKey()).isEqualTo("a2V5");
    assertThat(c.shared()).isFalse();
  }

  @Test
  void mistakesAreNamedInOneLine() throws Exception {
    assertThatThrownBy(() -> ServerConfiguration.load(write("tributary: {objectstore: s3://b/p}\n"), Map.of()))
        .hasMessageContaining("unknown key 'tributary.objectstore'").hasMessageContaining("tributary.object-store");
    assertThatThrownBy(() -> ServerConfiguration.load(null, Map.of("TRIBUTARY_METADATA_STORE", "dynamodb")))
        .hasMessageContaining("no table is named").hasMessageContaining("TRIBUTARY_METADATA_DYNAMODB_TABLE");
    assertThatThrownBy(() -> ServerConfiguration.load(null, Map.of("TRIBUTARY_METADATA_STORE", "postgres")))
        .hasMessageContaining("must be embedded or dynamodb, not 'postgres'");
    assertThatThrownBy(() -> ServerConfiguration.load(null, Map.of("TRIBUTARY_LEADER_LEASE_TIME", "ten")))
        .hasMessageContaining("tributary.leader.lease-time");
    assertThatThrownBy(() -> ServerConfiguration.load(null, Map.of("TRIBUTARY_S3_PATH_STYLE", "yes")))
        .hasMessageContaining("tributary.s3.path-style must be true or false, not 'yes'");
    assertThatThrownBy(() -> ServerConfiguration.load(dir.resolve("missing.yaml"), Map.of()))
        .hasMessageContaining("missing.yaml: no such file");
    assertThatThrownBy(() -> ServerConfiguration.load(null, Map.of("TRIBUTARY_SERVER_ADVERTISED_URL", "ftp://10.0.0.5")))
        .hasMessageContaining("must be an http(s) URL");
  }

  private Path write(String yaml) throws Exception {
    Path f = Files.createTempFile(dir, "config", ".yaml");
    Files.writeString(f, yaml);
    return f;
  }
}
