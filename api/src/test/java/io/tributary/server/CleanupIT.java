package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job leaves behind: only its retained checkpoints' directories while it runs (no empty
 * {@code chk-*} directories pile up); nothing of its checkpoints once deleted, its savepoints
 * unless the delete asks for them too.
 */
class CleanupIT {
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

  static Path storage(String job) {
    return dir.resolve("data/checkpoints/default--" + job);
  }

  static long entries(Path d) throws Exception {
    if (!Files.isDirectory(d)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  @Test
  void checkpointDirectoriesAreRemovedWithTheirCheckpointsAndTheJob() throws Exception {
    String spec = ServerTests.trickle("tidy", 1).replace("checkpoints: {interval: 200ms}",
        "checkpoints: {interval: 200ms, retain: 2}");
    assertThat(ServerTests.send(server, "PUT", "/v1/projects/default/jobs/tidy", ServerTests.ADMIN,
        Attacks.body(spec)).statusCode()).isEqualTo(201);
    Attacks.await(server, "default", "tidy", j -> j.path("lastCheckpoint").path("id").asLong() >= 12);
    // retained 2, one in flight, one whose garbage is being collected
    assertThat(entries(storage("tidy").resolve("checkpoints"))).isLessThanOrEqualTo(4);
    assertThat(ServerTests.send(server, "POST", "/v1/projects/default/jobs/tidy/stop", ServerTests.ADMIN,
        "{\"savepoint\": true}").statusCode()).isEqualTo(202);
    assertThat(entries(storage("tidy").resolve("savepoints"))).isEqualTo(1);

    assertThat(ServerTests.send(server, "DELETE", "/v1/projects/default/jobs/tidy", ServerTests.ADMIN, null)
        .statusCode()).isEqualTo(204);
    assertThat(storage("tidy").resolve("checkpoints")).doesNotExist();
    assertThat(storage("tidy").resolve("state")).doesNotExist();
    assertThat(entries(storage("tidy").resolve("savepoints"))).as("savepoints stay").isEqualTo(1);

    assertThat(ServerTests.send(server, "PUT", "/v1/projects/default/jobs/tidy", ServerTests.ADMIN,
        Attacks.body(spec).replaceFirst("\\{", "{\"desiredState\":\"STOPPED\",")).statusCode()).isEqualTo(201);
    var listed = Attacks.JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/default/jobs/tidy/savepoints",
        ServerTests.ADMIN, null).body());
    assertThat(listed.path("items").size()).as("the predecessor's savepoint is listed").isEqualTo(1);
    assertThat(ServerTests.send(server, "DELETE", "/v1/projects/default/jobs/tidy?deleteSavepoints=true",
        ServerTests.ADMIN, null).statusCode()).isEqualTo(204);
    assertThat(storage("tidy")).doesNotExist();
  }
}
