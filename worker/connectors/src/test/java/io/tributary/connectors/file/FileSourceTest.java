package io.tributary.connectors.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connectors.CollectingOutput;
import io.tributary.connect.ConnectorException;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import io.tributary.stream.Record;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourceTest {
  @TempDir Path dir;

  @Test
  void readsOneFileCountingMalformedLinesAndSkippingBlankOnes() throws Exception {
    Path file = dir.resolve("events.jsonl");
    Files.writeString(file, "{\"a\":1}\n\nnot json\n{\"a\":2}\n   \n{\"a\":3}");
    FileSource source = new FileSource("in", file);

    assertThat(source.splits(4)).extracting(SourceSplit::id).containsExactly("events.jsonl");
    assertThat(source.bounded()).isTrue();
    CollectingOutput out = CollectingOutput.readAll(source, 4, 2);

    assertThat(out.records).extracting(r -> r.get("a")).containsExactly(1L, 2L, 3L);
    assertThat(out.malformed).singleElement()
        .satisfies(m -> assertThat(m.raw()).isEqualTo("not json"))
        .satisfies(m -> assertThat(m.reason()).startsWith("invalid JSON"));
  }

  @Test
  void directorySplitsAreItsVisibleFilesSortedByName() throws Exception {
    Files.writeString(dir.resolve("b.jsonl"), "{\"f\":\"b1\"}\n{\"f\":\"b2\"}\n");
    Files.writeString(dir.resolve("a.jsonl"), "{\"f\":\"a1\"}\n");
    Files.writeString(dir.resolve(".hidden.jsonl"), "{\"f\":\"hidden\"}\n");
    Files.createDirectory(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/c.jsonl"), "{\"f\":\"nested\"}\n");
    FileSource source = new FileSource("in", dir);

    assertThat(source.splits(1)).extracting(SourceSplit::id).containsExactly("a.jsonl", "b.jsonl");
    assertThat(CollectingOutput.readAll(source, 1, 100).records)
        .extracting(r -> r.get("f")).containsExactly("a1", "b1", "b2");
  }

  @Test
  void readReturnsAtMostMaxThenEnd() throws Exception {
    Path file = dir.resolve("x.jsonl");
    Files.writeString(file, "{\"i\":1}\n{\"i\":2}\n{\"i\":3}\n");
    FileSource source = new FileSource("in", file);
    CollectingOutput out = new CollectingOutput();
    try (SplitReader reader = source.open(source.splits(1).get(0))) {
      assertThat(reader.read(out, 2)).isEqualTo(2);
      assertThat(reader.read(out, 2)).isEqualTo(1);
      assertThat(reader.read(out, 2)).isEqualTo(SplitReader.END);
      assertThat(reader.read(out, 2)).isEqualTo(SplitReader.END);
    }
    assertThat(out.records).extracting(Record::timestamp).containsOnly(Record.NO_TIMESTAMP);
  }

  @Test
  void missingPathSaysWhatIsWrong() {
    FileSource source = new FileSource("in", dir.resolve("nope"));
    assertThatThrownBy(() -> source.splits(1))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("file source 'in'")
        .hasMessageContaining("nope");
  }
}
