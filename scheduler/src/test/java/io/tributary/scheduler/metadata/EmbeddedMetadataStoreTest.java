package io.tributary.scheduler.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on local disk, plus what only a local log has to get right. */
class EmbeddedMetadataStoreTest extends MetadataStoreContractTest {
  @TempDir Path dir;

  @Override
  protected MetadataStore open() {
    return new EmbeddedMetadataStore(dir);
  }

  private Path log() {
    return dir.resolve(MetadataLog.LOG);
  }

  @Test
  void everythingIsThereAfterReopening() {
    store.put("projects/default/jobs/a", bytes("a1"), 0);
    store.put("projects/default/jobs/a", bytes("a2"), 1);
    store.put("projects/default/jobs/b", bytes("b1"), 0);
    store.put("projects/default/jobs/c", bytes("c1"), 0);
    store.delete("projects/default/jobs/c", 1);
    Map<String, Item> before = group("projects/default/");
    store.close();
    store = open();
    assertThat(group("projects/default/")).isEqualTo(before).hasSize(2);
    assertThat(store.put("projects/default/jobs/a", bytes("a3"), 2)).isEqualTo(3);
  }

  @Test
  void aSecondStoreOnTheSameDirectoryIsRefused() {
    assertThatThrownBy(() -> new EmbeddedMetadataStore(dir))
        .isInstanceOfSatisfying(MetadataStoreException.class, e -> assertThat(e.retryable()).isFalse());
  }

  @Test
  void aClosedStoreRefusesCalls() {
    store.close();
    assertThatThrownBy(() -> store.get("jobs/a/spec")).isInstanceOf(MetadataStoreException.class);
    assertThatThrownBy(() -> store.put("jobs/a/spec", bytes("x"), 0)).isInstanceOf(MetadataStoreException.class);
  }

  @Test
  void aTornLastRecordIsDroppedAtEveryCutPoint() throws IOException {
    store.put("jobs/a/spec", bytes("kept"), 0);
    long kept = Files.size(log());
    store.put("jobs/b/spec", bytes("torn"), 0);
    store.close();
    byte[] whole = Files.readAllBytes(log());
    for (int cut = (int) kept; cut < whole.length; cut++) {
      Files.write(log(), Arrays.copyOf(whole, cut));
      store = open();
      assertThat(store.get("jobs/a/spec").orElseThrow().valueAsString()).as("cut at " + cut).isEqualTo("kept");
      assertThat(store.get("jobs/b/spec")).as("cut at " + cut).isEmpty();
      store.put("jobs/c/spec", bytes("after"), 0);
      store.close();
      store = open();
      assertThat(store.get("jobs/c/spec")).as("appended after the cut at " + cut).isPresent();
      store.close();
    }
    store = open();
  }

  @Test
  void zerosLeftAfterACrashAreDropped() throws IOException {
    store.put("jobs/a/spec", bytes("kept"), 0);
    store.close();
    Files.write(log(), new byte[64], StandardOpenOption.APPEND);
    store = open();
    assertThat(store.get("jobs/a/spec")).isPresent();
    store.put("jobs/b/spec", bytes("next"), 0);
    assertThat(Files.size(log())).isLessThan(64 + 2 * 40);
  }

  @Test
  void corruptionBeforeTheLastRecordIsReportedNotSkipped() throws IOException {
    store.put("jobs/a/spec", bytes("first"), 0);
    store.put("jobs/b/spec", bytes("second"), 0);
    store.close();
    byte[] image = Files.readAllBytes(log());
    image[8 + LogRecord.HEADER_BYTES + 12] ^= 1;
    Files.write(log(), image);
    assertThatThrownBy(this::open)
        .isInstanceOfSatisfying(MetadataStoreException.class, e -> assertThat(e.retryable()).isFalse())
        .hasMessageContaining("corrupt");
    store = new EmbeddedMetadataStore(dir.resolve("other"));
  }

  @Test
  void compactionKeepsOnlyLiveItemsAndSurvivesReopening() throws IOException {
    store.close();
    store = new EmbeddedMetadataStore(dir, 4096);
    for (int i = 0; i < 200; i++) {
      String key = "jobs/j" + (i % 5) + "/status";
      long version = store.get(key).map(Item::version).orElse(0L);
      store.put(key, bytes("status " + i), version);
    }
    store.put("jobs/gone/status", bytes("x"), 0);
    store.delete("jobs/gone/status", 1);
    assertThat(Files.size(log())).isLessThan(2 * 4096 + 200);
    assertThat(Files.exists(dir.resolve(MetadataLog.COMPACTING))).isFalse();
    store.close();
    store = open();
    for (int j = 0; j < 5; j++) {
      Item item = store.get("jobs/j" + j + "/status").orElseThrow();
      assertThat(item.version()).isEqualTo(40);
      assertThat(item.valueAsString()).isEqualTo("status " + (195 + j));
    }
    assertThat(store.get("jobs/gone/status")).isEmpty();
  }

  @Test
  void aLeftoverCompactionFileIsIgnored() throws IOException {
    store.put("jobs/a/spec", bytes("real"), 0);
    store.close();
    Files.write(dir.resolve(MetadataLog.COMPACTING), new byte[] {1, 2, 3});
    store = open();
    assertThat(store.get("jobs/a/spec").orElseThrow().valueAsString()).isEqualTo("real");
    assertThat(Files.exists(dir.resolve(MetadataLog.COMPACTING))).isFalse();
  }

  @Test
  void aFileThatIsNotALogIsRefused() throws IOException {
    store.close();
    Files.write(log(), "hello, world".getBytes());
    assertThatThrownBy(this::open).isInstanceOf(MetadataStoreException.class).hasMessageContaining("not a");
    store = new EmbeddedMetadataStore(dir.resolve("other"));
  }
}
