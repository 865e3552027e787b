package io.tributary.connectors.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connectors.CollectingOutput;
import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSinkTest {
  private static final Schema SCHEMA = Schema.of("n", "s");

  @TempDir Path tmp;

  @Test
  void writtenDataIsHiddenUntilCommitThenVisibleAsPartFile() throws Exception {
    Path dir = tmp.resolve("out/nested");
    try (SinkWriter w = new FileSink("out", dir).open(3, 4)) {
      w.write(record(1));
      w.write(record(2));
      assertThat(visible(dir)).isEmpty();
      assertThat(hidden(dir)).hasSize(1);

      w.commit();

      assertThat(visible(dir)).containsExactly("part-3-0-0.jsonl");
      assertThat(hidden(dir)).isEmpty();
      assertThat(Files.readAllLines(dir.resolve("part-3-0-0.jsonl")))
          .containsExactly("{\"n\":1,\"s\":\"r1\"}", "{\"n\":2,\"s\":\"r2\"}");
    }
  }

  @Test
  void eachCommitPublishesWhatWasWrittenSinceTheLastOne() throws Exception {
    try (SinkWriter w = new FileSink("out", tmp).open(0, 1)) {
      w.commit();
      assertThat(visible(tmp)).isEmpty();
      w.write(record(1));
      w.commit();
      w.commit();
      w.write(record(2));
      w.write(record(3));
      w.commit();
    }
    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl", "part-0-0-1.jsonl");
    assertThat(Files.readAllLines(tmp.resolve("part-0-0-1.jsonl"))).hasSize(2);
  }

  @Test
  void closeWithoutCommitLeavesOnlyHiddenFiles() throws Exception {
    SinkWriter w = new FileSink("out", tmp).open(0, 1);
    w.write(record(1));
    w.commit();
    w.write(record(2));
    w.close();

    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl");
    assertThat(hidden(tmp)).singleElement().asString().startsWith(".");
    assertThat(CollectingOutput.readAll(new FileSource("in", tmp), 1, 10).records)
        .extracting(r -> r.get("n")).containsExactly(1L);
  }

  @Test
  void aNewWriterNeverOverwritesCommittedOutput() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    for (int attempt = 0; attempt < 2; attempt++) {
      try (SinkWriter w = sink.open(0, 2)) {
        w.write(record(attempt));
        w.commit();
      }
    }
    try (SinkWriter other = sink.open(1, 2)) {
      other.write(record(9));
      other.commit();
    }
    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl", "part-0-0-1.jsonl", "part-1-0-0.jsonl");
  }

  @Test
  void preCommitHidesUntilCommitWhichPublishesExactlyOnce() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    String committable;
    try (SinkWriter w = sink.open(2, 3, 5)) {
      w.write(record(1));
      w.write(record(2));
      committable = w.preCommit(7);
      w.write(record(3));

      assertThat(committable).contains("\"checkpoint\":7").contains(".part-2-5-0.jsonl.pending")
          .contains("\"part-2-5-0.jsonl\"");
      assertThat(visible(tmp)).isEmpty();
      assertThat(hidden(tmp)).containsExactly(".part-2-5-0.jsonl.pending", ".part-2-5-1.jsonl.inprogress");

      sink.commit(List.of(committable));
    }
    assertThat(visible(tmp)).containsExactly("part-2-5-0.jsonl");
    assertThat(Files.readAllLines(tmp.resolve("part-2-5-0.jsonl")))
        .containsExactly("{\"n\":1,\"s\":\"r1\"}", "{\"n\":2,\"s\":\"r2\"}");
    assertThat(hidden(tmp)).containsExactly(".part-2-5-1.jsonl.inprogress");
  }

  @Test
  void commitIsIdempotent() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    String committable;
    try (SinkWriter w = sink.open(0, 1, 0)) {
      w.write(record(1));
      committable = w.preCommit(1);
    }
    sink.commit(List.of(committable));
    sink.commit(List.of(committable));
    sink.recover(List.of(committable), 1, 1);

    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl");
    assertThat(hidden(tmp)).isEmpty();
    assertThat(Files.readAllLines(tmp.resolve("part-0-0-0.jsonl"))).hasSize(1);
  }

  @Test
  void preCommitWithNothingWrittenHasNothingToCommit() {
    try (SinkWriter w = new FileSink("out", tmp).open(0, 1, 0)) {
      assertThat(w.preCommit(1)).isNull();
      w.write(record(1));
      assertThat(w.preCommit(2)).isNotNull();
    }
  }

  @Test
  void recoverWithoutTheCommittableLeavesNothing() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    try (SinkWriter w = sink.open(0, 2, 0); SinkWriter other = sink.open(1, 2, 0)) {
      w.write(record(1));
      w.preCommit(1);
      w.write(record(2));
      other.write(record(3));
    }
    assertThat(hidden(tmp)).hasSize(3);

    sink.recover(List.of(), 2, 1);

    assertThat(names(tmp)).isEmpty();
  }

  @Test
  void recoverCommitsTheRestoredCheckpointAndDropsWhatCameAfter() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    String restored;
    try (SinkWriter w = sink.open(0, 1, 0)) {
      w.write(record(1));
      restored = w.preCommit(1);
      w.write(record(2));
      w.preCommit(2); // checkpoint 2 never completes
      w.write(record(3)); // after the last pre-commit
    }

    sink.recover(List.of(restored), 1, 1);

    assertThat(hidden(tmp)).isEmpty();
    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl");
    assertThat(readSink()).containsExactly(1L);

    try (SinkWriter w = sink.open(0, 1, 1)) {
      w.write(record(2));
      sink.commit(List.of(w.preCommit(2)));
    }
    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl", "part-0-1-0.jsonl");
    assertThat(readSink()).containsExactly(1L, 2L);
  }

  @Test
  void recoverLeavesFilesOfTheCurrentAttemptAlone() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    try (SinkWriter w = sink.open(0, 1, 3)) {
      w.write(record(1));
      String c = w.preCommit(1);
      sink.recover(List.of(), 1, 3);
      assertThat(hidden(tmp)).containsExactly(".part-0-3-0.jsonl.pending");
      sink.commit(List.of(c));
    }
    assertThat(visible(tmp)).containsExactly("part-0-3-0.jsonl");
  }

  @Test
  void aPendingFileOfAnAbortedCheckpointIsCommittedWithTheNextOne() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    try (SinkWriter w = sink.open(0, 1, 0)) {
      w.write(record(1));
      w.preCommit(1); // checkpoint 1 is aborted: never committed
      w.write(record(2));
      String second = w.preCommit(2);
      sink.commit(List.of(second));
      assertThat(w.preCommit(3)).as("nothing left to commit").isNull();
    }
    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl", "part-0-0-1.jsonl");
    assertThat(readSink()).containsExactly(1L, 2L);
  }

  @Test
  void committingDataThatIsGoneFailsNamingTheFile() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    String committable;
    try (SinkWriter w = sink.open(0, 1, 0)) {
      w.write(record(1));
      committable = w.preCommit(1);
    }
    Files.delete(tmp.resolve(".part-0-0-0.jsonl.pending"));

    assertThatThrownBy(() -> sink.commit(List.of(committable)))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("file sink 'out'")
        .hasMessageContaining("part-0-0-0.jsonl");
  }

  @Test
  void committablesThatAreNotOursAreRejected() {
    FileSink sink = new FileSink("out", tmp);
    for (String bad : List.of("nope", "{}",
        "{\"files\":[{\"pending\":\"../../etc/x\",\"final\":\"part-0-0-0.jsonl\"}]}",
        "{\"files\":[{\"pending\":\".part-0-0-0.jsonl.pending\",\"final\":\"../part-0-0-0.jsonl\"}]}")) {
      assertThatThrownBy(() -> sink.commit(List.of(bad))).as(bad)
          .isInstanceOf(ConnectorException.class).hasMessageContaining("not a committable");
    }
  }

  @Test
  void endOfBoundedJobCommitPublishesPendingAndInProgress() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    String committable;
    try (SinkWriter w = sink.open(0, 1, 2)) {
      w.write(record(1));
      committable = w.preCommit(1);
      w.write(record(2));
      w.commit();
    }
    assertThat(visible(tmp)).containsExactly("part-0-2-0.jsonl", "part-0-2-1.jsonl");
    assertThat(hidden(tmp)).isEmpty();
    sink.commit(List.of(committable)); // the checkpoint completing later is fine
    assertThat(readSink()).containsExactly(1L, 2L);
  }

  @Test
  void attemptsNeverCollide() throws Exception {
    FileSink sink = new FileSink("out", tmp);
    List<String> committables = new ArrayList<>();
    for (long attempt = 0; attempt < 3; attempt++) {
      try (SinkWriter w = sink.open(0, 1, attempt)) {
        w.write(record(attempt));
        committables.add(w.preCommit(1));
      }
    }
    sink.commit(committables);
    assertThat(visible(tmp)).containsExactly("part-0-0-0.jsonl", "part-0-1-0.jsonl", "part-0-2-0.jsonl");
  }

  private List<Object> readSink() {
    return CollectingOutput.readAll(new FileSource("in", tmp), 1, 100).records.stream()
        .map(r -> r.get("n")).toList();
  }

  private static Record record(long n) {
    return new Record(SCHEMA, new Object[] {n, "r" + n}, Record.NO_TIMESTAMP);
  }

  private static List<String> visible(Path dir) throws IOException {
    return names(dir).filter(n -> !n.startsWith(".")).toList();
  }

  private static List<String> hidden(Path dir) throws IOException {
    return names(dir).filter(n -> n.startsWith(".")).toList();
  }

  private static Stream<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList().stream();
    }
  }
}
