package io.tributary.scheduler.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A metadata log whose tail is cut or garbled says, as the store opens, what it dropped. */
class MetadataLogTailTest {
  @TempDir
  Path dir;

  @Test
  void aDroppedTailIsLoggedWithItsBytesAndRecords() throws Exception {
    try (EmbeddedMetadataStore store = new EmbeddedMetadataStore(dir)) {
      store.put("jobs/a", "kept".getBytes(StandardCharsets.UTF_8), 0);
      store.put("jobs/b", "torn".getBytes(StandardCharsets.UTF_8), 0);
    }
    Path log = dir.resolve(MetadataLog.LOG);
    byte[] whole = Files.readAllBytes(log);
    Files.write(log, Arrays.copyOf(whole, whole.length - 3));
    List<String> messages = new ArrayList<>();
    Logger logger = Logger.getLogger(MetadataLog.class.getName());
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        messages.add(r.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(handler);
    try (EmbeddedMetadataStore store = new EmbeddedMetadataStore(dir)) {
      assertThat(store.get("jobs/a")).isPresent();
      assertThat(store.get("jobs/b")).isEmpty();
    } finally {
      logger.removeHandler(handler);
    }
    assertThat(messages).anySatisfy(m -> assertThat(m).contains("dropped its last").contains(" bytes")
        .contains("1 incomplete record").contains("records kept"));
  }
}
