package io.tributary.connectors.debug;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.SinkWriter;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StdoutSinkTest {
  @Test
  void printsEachRecordAsAJsonLineAtOnce() {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      try (SinkWriter w = new StdoutSink().open(0, 1)) {
        w.write(new Record(Schema.of("a", "b"), new Object[] {1L, "x"}, Record.NO_TIMESTAMP));
        assertThat(captured.toString(StandardCharsets.UTF_8)).as("visible before any commit")
            .isEqualTo("{\"a\":1,\"b\":\"x\"}\n");
        w.write(new Record(Schema.of("a"), new Object[] {2.5}, Record.NO_TIMESTAMP));
        w.commit();
      }
    } finally {
      System.setOut(original);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8)).isEqualTo("{\"a\":1,\"b\":\"x\"}\n{\"a\":2.5}\n");
  }
}
