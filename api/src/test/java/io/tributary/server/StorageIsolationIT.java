package io.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An editor of project team-a tries to read and write what is not team-a's: the server's metadata
 * and checkpoints, another project's files, and places outside through symbolic links (created
 * here, as a local user could) and URL forms. Every attempt is refused with 400 at the path's
 * pointer, or, for a link created after the spec was accepted, fails the job as a USER error
 * without a restart; nothing is read or written.
 */
class StorageIsolationIT {
  @TempDir
  static Path dir;

  static TributaryServer server;
  static String editor;
  static Path files;
  static Path outside;

  @BeforeAll
  static void start() throws Exception {
    files = dir.resolve("files");
    server = ServerTests.start(dir.resolve("data"), files);
    editor = Attacks.project(server, "team-a", "editor");
    Attacks.project(server, "team-b", "editor");
    outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret.jsonl"), "{\"secret\": \"do-not-read\"}\nnot json: the secret line\n");
    Files.createDirectories(files.resolve("team-b"));
    Files.writeString(files.resolve("team-b").resolve("private.jsonl"), "{\"b\": 1}\n");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static String reading(String name, String path) {
    return """
        name: %s
        sources:
          s: {type: file, path: '%s', deadLetterOutput: bad}
        sinks:
          out: {input: s, type: file, path: out/%s}
          dead: {input: bad, type: file, path: dead/%s}
        """.formatted(name, path, name, name);
  }

  static String writing(String name, String path) {
    return """
        name: %s
        sources:
          s: {type: datagen, count: 10}
        sinks:
          out: {input: s, type: file, path: '%s'}
        """.formatted(name, path);
  }

  static void refusedEverywhere(String name, String spec, String pointer) throws Exception {
    Attacks.refused(ServerTests.send(server, "PUT", "/v1/projects/team-a/jobs/" + name, editor, Attacks.body(spec)),
        400, pointer);
    Attacks.refused(ServerTests.send(server, "POST", "/v1/projects/team-a/plans", editor, Attacks.body(spec)),
        400, pointer);
    assertThat(Attacks.jobs(server, "team-a")).doesNotContain(name);
  }

  @Test
  void theServersOwnMetadataAndCheckpointsCannotBeNamed() throws Exception {
    Path data = dir.resolve("data");
    String[] attempts = {"../../data/metadata/metadata.log", data.resolve("metadata/metadata.log").toString(),
        "%2e%2e/%2e%2e/data/metadata/metadata.log", "%2E%2E%2F%2E%2E%2Fdata%2Fmetadata",
        "file://" + data.resolve("metadata/metadata.log"), "file:///etc/passwd", "/etc/shadow",
        "../team-b/private.jsonl", files.resolve("team-b/private.jsonl").toString(), "..", "."};
    for (String path : attempts) {
      if (path.equals(".")) {
        continue; // the project's own directory: allowed
      }
      refusedEverywhere("steal", reading("steal", path), "/spec/sources/s/path");
    }
    refusedEverywhere("plant", writing("plant", "../../data/checkpoints/team-b--secret"), "/spec/sinks/out/path");
    refusedEverywhere("plant", writing("plant", data.resolve("metadata").toString()), "/spec/sinks/out/path");
    refusedEverywhere("plant", writing("plant", "%2e%2e/team-b/planted"), "/spec/sinks/out/path");
    assertThat(files.resolve("team-b/planted")).doesNotExist();
    try (Stream<Path> m = Files.list(data.resolve("metadata"))) {
      assertThat(m.map(p -> p.getFileName().toString())).doesNotContain("part-0-0-0.jsonl");
    }
  }

  @Test
  void aSymbolicLinkOutOfTheProjectIsRefusedWhenTheSpecIsChecked() throws Exception {
    Path mine = Files.createDirectories(files.resolve("team-a"));
    Files.createSymbolicLink(mine.resolve("etc"), Path.of("/etc"));
    Files.createSymbolicLink(mine.resolve("outside"), outside);
    Files.createSymbolicLink(mine.resolve("theirs"), files.resolve("team-b"));
    refusedEverywhere("steal", reading("steal", "etc/shadow"), "/spec/sources/s/path");
    refusedEverywhere("steal", reading("steal", "outside/secret.jsonl"), "/spec/sources/s/path");
    refusedEverywhere("steal", reading("steal", "theirs/private.jsonl"), "/spec/sources/s/path");
    refusedEverywhere("plant", writing("plant", "etc/tributary"), "/spec/sinks/out/path");
    refusedEverywhere("plant", writing("plant", "outside/planted"), "/spec/sinks/out/path");
    assertThat(Path.of("/etc/tributary")).doesNotExist();
    assertThat(outside.resolve("planted")).doesNotExist();
  }

  @Test
  void aLinkSwappedInAfterValidationFailsTheJobAsAUserErrorWithoutRestarts() throws Exception {
    Path mine = Files.createDirectories(files.resolve("team-a"));
    Path in = Files.createDirectories(mine.resolve("later"));
    Files.writeString(in.resolve("data.jsonl"), "{\"n\": 1}\n");
    String spec = reading("swap", "later/data.jsonl");
    String stopped = Attacks.JSON.createObjectNode().put("desiredState", "STOPPED")
        .setAll((com.fasterxml.jackson.databind.node.ObjectNode) Attacks.JSON.readTree(Attacks.body(spec))).toString();
    assertThat(ServerTests.send(server, "PUT", "/v1/projects/team-a/jobs/swap", editor, stopped).statusCode())
        .isEqualTo(201);
    // the directory becomes a link to the outside once the spec was accepted
    Files.delete(in.resolve("data.jsonl"));
    Files.delete(in);
    Path target = Files.createDirectories(outside.resolve("later"));
    Files.copy(outside.resolve("secret.jsonl"), target.resolve("data.jsonl"));
    Files.createSymbolicLink(in, target);
    assertThat(ServerTests.send(server, "POST", "/v1/projects/team-a/jobs/swap/resume", editor, "{\"from\":\"none\"}")
        .statusCode()).isEqualTo(202);
    JsonNode failed = Attacks.await(server, "team-a", "swap", j -> j.path("observedState").asText().equals("failed"));
    assertThat(failed.path("failure").path("domain").asText()).isEqualTo("USER");
    assertThat(failed.path("failure").path("retryable").asBoolean()).isFalse();
    assertThat(failed.path("failure").path("reason").asText()).contains("symbolic link");
    JsonNode events = Attacks.JSON.readTree(ServerTests.send(server, "GET", "/v1/projects/team-a/jobs/swap/events",
        editor, null).body());
    assertThat(events.toString()).doesNotContain("recovering");
    for (String sink : new String[] {"out/swap", "dead/swap"}) {
      Path d = mine.resolve(sink);
      if (Files.isDirectory(d)) {
        try (Stream<Path> written = Files.walk(d)) {
          for (Path f : written.filter(Files::isRegularFile).toList()) {
            assertThat(Files.readString(f)).doesNotContain("secret");
          }
        }
      }
    }
  }

  @Test
  void relativePathsResolveInTheProjectsDirectory() throws Exception {
    Path mine = Files.createDirectories(files.resolve("team-a").resolve("in"));
    Files.writeString(mine.resolve("numbers.jsonl"), "{\"n\": 1}\n{\"n\": 2}\nnot json\n");
    String spec = reading("own", "in/numbers.jsonl");
    assertThat(ServerTests.send(server, "PUT", "/v1/projects/team-a/jobs/own", editor, Attacks.body(spec)).statusCode())
        .isEqualTo(201);
    Attacks.await(server, "team-a", "own", j -> j.path("observedState").asText().equals("finished"));
    try (Stream<Path> out = Files.list(files.resolve("team-a/out/own"))) {
      assertThat(out.filter(p -> p.getFileName().toString().endsWith(".jsonl")).count()).isPositive();
    }
    try (Stream<Path> dead = Files.list(files.resolve("team-a/dead/own"))) {
      assertThat(dead.filter(p -> p.getFileName().toString().endsWith(".jsonl")).count()).isPositive();
    }
  }
}
