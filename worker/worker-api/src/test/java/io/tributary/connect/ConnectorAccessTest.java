package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared access checks: per-project file directories, the endpoint allow-list, client settings. */
class ConnectorAccessTest {
  @TempDir
  Path dir;

  @Test
  void pathsResolveInTheProjectsDirectoryAndNeverLeaveIt() throws Exception {
    StorageRoots roots = StorageRoots.of(List.of(dir.resolve("files")));
    Path mine = Files.createDirectories(dir.resolve("files/a"));
    assertThat(roots.resolve("a", "in/x.jsonl")).isEqualTo(mine.resolve("in/x.jsonl"));
    assertThat(roots.resolve("a", "file://" + mine.resolve("y"))).isEqualTo(mine.resolve("y"));
    assertThat(roots.resolve("a", "in%2Fz")).isEqualTo(mine.resolve("in/z"));
    for (String bad : List.of("../b/x", "%2e%2e/b", "/etc/passwd", "file:///etc/passwd", "..", "", "file://evil/x",
        dir.resolve("files/b/x").toString())) {
      assertThatThrownBy(() -> roots.resolve("a", bad)).as(bad).isInstanceOf(AccessRefusedException.class);
    }
    Files.createSymbolicLink(mine.resolve("out"), Path.of("/etc"));
    assertThatThrownBy(() -> roots.resolve("a", "out/shadow")).hasMessageContaining("symbolic link");
    Files.createSymbolicLink(mine.resolve("dangling"), dir.resolve("nowhere/x"));
    assertThatThrownBy(() -> roots.checkOpen(mine.resolve("dangling/y"))).isInstanceOf(AccessRefusedException.class);
    assertThat(StorageRoots.unrestricted().resolve("a", "rel")).isEqualTo(Path.of("rel").toAbsolutePath());
  }

  @Test
  void endpointsMatchTheAllowListAsWritten() {
    Endpoints e = Endpoints.parse("loopback:1024-65535,kafka.internal:9092,*.brokers.example:9093,10.1.0.0/16:*")
        .exceptLoopbackPorts(Set.of(8080));
    assertThat(e.refusals("localhost:9092,127.0.0.1:29092,[::1]:9092,kafka.internal:9092,b1.brokers.example:9093,"
        + "10.1.2.3:1")).isEmpty();
    for (String bad : List.of("localhost:22", "localhost:8080", "127.1:9092", "2130706433:9092", "0.0.0.0:9092",
        "kafka.internal:9093", "evil.example:9092", "brokers.example:9093", "10.2.0.1:9092", "10.1.2.3",
        "kafka.internal.evil:9092")) {
      assertThat(e.refusal(bad)).as(bad).isPresent();
    }
    assertThat(Endpoints.parse("none").refusal("localhost:9092")).isPresent();
    assertThat(Endpoints.any().refusal("anywhere:1")).isEmpty();
    assertThatThrownBy(() -> Endpoints.parse("no-port")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void onlyAllowedClientSettingsPass() {
    assertThat(ClientSettings.refusal("kafka", false, "max.poll.records", "500")).isEmpty();
    assertThat(ClientSettings.refusal("kafka", true, "linger.ms", "20.0")).isEmpty();
    assertThat(ClientSettings.refusal("kafka", false, "sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";")).isEmpty();
    for (String[] bad : new String[][] {{"interceptor.classes", "x.Y"}, {"bootstrap.servers", "a:1"},
        {"ssl.truststore.location", "/etc/shadow"}, {"max.poll.records", "-1"}, {"transactional.id", "x"},
        {"sasl.jaas.config", "com.sun.security.auth.module.JndiLoginModule required;"},
        {"sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required; x.Y required;"}}) {
      assertThat(ClientSettings.refusal("kafka", false, bad[0], bad[1])).as(bad[0]).isPresent();
    }
    assertThat(ClientSettings.refusal("kafka", false, "linger.ms", "5")).as("a producer setting on a consumer").isPresent();
  }
}
