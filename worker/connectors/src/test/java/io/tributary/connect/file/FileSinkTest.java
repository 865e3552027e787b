package io.tributary.connect.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.CollectingOutput;
import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

      assertThat(visible(dir)).containsExactly("part-3-0.jsonl");
      assertThat(hidden(dir)).isEmpty();
      assertThat(Files.readAllLines(dir.resolve("part-3-0.jsonl")))
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
    assertThat(visible(tmp)).containsExactly("part-0-0.jsonl", "part-0-1.jsonl");
    assertThat(Files.readAllLines(tmp.resolve("part-0-1.jsonl"))).hasSize(2);
  }

  @Test
  void closeWithoutCommitLeavesOnlyHiddenFiles() throws Exception {
    SinkWriter w = new FileSink("out", tmp).open(0, 1);
    w.write(record(1));
    w.commit();
    w.write(record(2));
    w.close();

    assertThat(visible(tmp)).containsExactly("part-0-0.jsonl");
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
    assertThat(visible(tmp)).containsExactly("part-0-0.jsonl", "part-0-1.jsonl", "part-1-0.jsonl");
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
