package io.tributary.connectors.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connectors.CollectingOutput;
import io.tributary.connect.ConnectorException;
import io.tributary.connectors.ResumeCheck;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.connectors.json.MalformedRecordException;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourceResumeTest {
  private static final String[] TERMINATORS = {"\n", "\r\n", "\r"};
  private static final String[] TEXTS = {"plain", "é", "日本語", "\uD83D\uDE00", "tab\\tand \\\"quote\\\""};

  @TempDir Path dir;

  @Test
  void resumingAtAPositionContinuesExactlyWhereTheReaderWas() throws Exception {
    long base = ResumeCheck.baseSeed("file resume");
    for (int round = 0; round < 300; round++) {
      long seed = base + round;
      Random random = new Random(seed);
      Path file = dir.resolve("f" + round + ".jsonl");
      Files.write(file, randomLines(random, true));
      int bufferSize = 1 + random.nextInt(round % 2 == 0 ? 8 : 4096);

      CollectingOutput whole = ResumeCheck.uninterrupted(new FileSplitReader("in", file, 0, bufferSize), random);
      CollectingOutput pieces = ResumeCheck.interrupted(
          p -> new FileSplitReader("in", file, p == null ? 0 : Long.parseLong(p), 1 + random.nextInt(16)), random);

      assertThat(pieces.records).as("seed %d", seed).isEqualTo(whole.records);
      assertThat(pieces.malformed).as("seed %d", seed).isEqualTo(whole.malformed);
    }
  }

  @Test
  void linesAreThoseOfBufferedReaderWhateverTheBufferSize() throws Exception {
    long base = ResumeCheck.baseSeed("file lines");
    for (int round = 0; round < 300; round++) {
      long seed = base + round;
      Random random = new Random(seed);
      byte[] content = randomLines(random, false);
      Path file = dir.resolve("g" + round + ".jsonl");
      Files.write(file, content);

      CollectingOutput actual =
          ResumeCheck.uninterrupted(new FileSplitReader("in", file, 0, 1 + random.nextInt(8)), random);

      CollectingOutput expected = new CollectingOutput();
      BufferedReader lines = new BufferedReader(new StringReader(new String(content, StandardCharsets.UTF_8)));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.isBlank()) {
          try {
            expected.record(JsonRecords.parse(line));
          } catch (MalformedRecordException e) {
            expected.malformed(line, e.getMessage());
          }
        }
      }
      assertThat(actual.records).as("seed %d", seed).isEqualTo(expected.records);
      assertThat(actual.malformed).as("seed %d", seed).isEqualTo(expected.malformed);
    }
  }

  @Test
  void positionIsTheByteOffsetAfterTheLastLineHandedOut() throws Exception {
    Path file = dir.resolve("x.jsonl");
    Files.writeString(file, "{\"a\":\"é\"}\r\n\n{\"a\":2}\r{\"a\":3}");
    FileSource source = new FileSource("in", file);
    CollectingOutput out = new CollectingOutput();
    try (SplitReader reader = source.open(source.splits(1).get(0))) {
      assertThat(reader.position()).isEqualTo("0");
      assertThat(reader.read(out, 1)).isEqualTo(1);
      assertThat(reader.position()).isEqualTo("12");
      assertThat(reader.read(out, 1)).isEqualTo(1);
      assertThat(reader.position()).isEqualTo("21");
      assertThat(reader.read(out, 5)).isEqualTo(1);
      assertThat(reader.position()).isEqualTo("28");
      assertThat(reader.read(out, 5)).isEqualTo(SplitReader.END);
      assertThat(reader.position()).isEqualTo("28");
    }
    CollectingOutput rest = new CollectingOutput();
    try (SplitReader reader = source.open(source.splits(1).get(0), "21")) {
      assertThat(reader.read(rest, 5)).isEqualTo(1);
    }
    assertThat(rest.records).extracting(r -> r.get("a")).containsExactly(3L);
    try (SplitReader atEnd = source.open(source.splits(1).get(0), "28")) {
      assertThat(atEnd.read(out, 5)).isEqualTo(SplitReader.END);
    }
    assertThat(out.records).extracting(r -> r.get("a")).containsExactly("é", 2L, 3L);
  }

  @Test
  void resumesThroughTheSourceAcrossItsDefaultBuffer() throws Exception {
    Path file = dir.resolve("big.jsonl");
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append("{\"i\":").append(i).append(",\"pad\":\"").append("x".repeat(i % 13)).append("\"}")
          .append(TERMINATORS[i % 2]);
    }
    Files.writeString(file, text);
    FileSource source = new FileSource("in", file);
    long seed = ResumeCheck.baseSeed("file big");
    CollectingOutput pieces = ResumeCheck.interrupted(p -> source.open(source.splits(1).get(0), p), new Random(seed));
    assertThat(pieces.records).as("seed %d", seed).extracting(r -> r.get("i"))
        .containsExactlyElementsOf(java.util.stream.LongStream.range(0, 20_000).boxed().toList());
  }

  @Test
  void invalidUtf8IsAMalformedLineNotAFailure() throws Exception {
    Path file = dir.resolve("bad.jsonl");
    Files.write(file, new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}', '\n', '{', '}', '\n'});
    CollectingOutput out = CollectingOutput.readAll(new FileSource("in", file), 1, 10);
    assertThat(out.records).hasSize(1);
    assertThat(out.malformed).singleElement().satisfies(m -> assertThat(m.reason()).isEqualTo("invalid UTF-8"));
  }

  @Test
  void badPositionsSayWhatIsWrong() throws Exception {
    Path file = dir.resolve("x.jsonl");
    Files.writeString(file, "{\"a\":1}\n");
    FileSource source = new FileSource("in", file);
    FileSplit split = source.splits(1).get(0);
    assertThatThrownBy(() -> source.open(split, "abc"))
        .isInstanceOf(ConnectorException.class).hasMessageContaining("file source 'in'").hasMessageContaining("abc");
    assertThatThrownBy(() -> source.open(split, "-3")).isInstanceOf(ConnectorException.class);
    try (SplitReader beyond = source.open(split, "9")) {
      assertThatThrownBy(() -> beyond.read(new CollectingOutput(), 1))
          .isInstanceOf(ConnectorException.class).hasMessageContaining("only 8 bytes");
    }
  }

  /** Random lines: JSON objects, blank, malformed, multi-byte text, mixed terminators. */
  private static byte[] randomLines(Random random, boolean invalidUtf8) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int lines = random.nextInt(40);
    for (int i = 0; i < lines; i++) {
      int kind = random.nextInt(10);
      String line;
      if (kind == 0) {
        line = "";
      } else if (kind == 1) {
        line = " \t ";
      } else if (kind == 2) {
        line = "not json " + TEXTS[random.nextInt(TEXTS.length)];
      } else {
        line = "{\"i\":" + i + ",\"s\":\"" + TEXTS[random.nextInt(TEXTS.length)] + "\"}";
      }
      out.write(line.getBytes(StandardCharsets.UTF_8));
      if (invalidUtf8 && random.nextInt(15) == 0) {
        out.write(new byte[] {(byte) 0xc3, (byte) 0x28});
      }
      if (i < lines - 1 || random.nextBoolean()) {
        out.write(TERMINATORS[random.nextInt(TERMINATORS.length)].getBytes(StandardCharsets.UTF_8));
      }
    }
    return out.toByteArray();
  }
}
