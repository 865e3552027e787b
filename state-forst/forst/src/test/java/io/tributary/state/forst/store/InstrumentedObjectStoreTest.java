package io.tributary.state.forst.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstrumentedObjectStoreTest {
  @TempDir Path tmp;

  @Test
  void countsOperationsAndBytes() throws Exception {
    FaultyObjectStore faulty = new FaultyObjectStore(new LocalObjectStore(tmp.resolve("store")));
    InstrumentedObjectStore store = new InstrumentedObjectStore(faulty);
    Path file = tmp.resolve("f");
    Files.write(file, new byte[100]);

    store.put("a", file);
    store.put("b", new byte[10]);
    assertThat(store.putIfAbsent("b", new byte[7])).isFalse();
    assertThat(store.putIfAbsent("c", new byte[5])).isTrue();
    store.putAll(java.util.Map.of("d", new byte[20], "e", new byte[30]));
    store.get("a", tmp.resolve("copy"));
    store.getBytes("b");
    try (InputStream in = store.open("c")) {
      in.readAllBytes();
    }
    store.delete("c");
    faulty.failNth(FaultyObjectStore.Op.GET, 1);
    assertThatThrownBy(() -> store.getBytes("a")).isInstanceOf(IOException.class);

    assertThat(store.metrics()).isEqualTo(new ObjectStoreMetrics(5, 3, 1, 165, 115, 1));
  }
}
