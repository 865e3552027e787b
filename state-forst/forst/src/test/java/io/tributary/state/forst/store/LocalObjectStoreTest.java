package io.tributary.state.forst.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.store.ObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class LocalObjectStoreTest extends ObjectStoreContract {
  @Override
  ObjectStore newStore() {
    return new LocalObjectStore(tmp.resolve("objects"));
  }

  @Test
  void objectsAreFilesUnderTheRootAndNoTempFilesRemain() throws Exception {
    store.put("a/b", bytes("1"));
    store.putIfAbsent("a/c", bytes("2"));
    store.putIfAbsent("a/c", bytes("3"));
    store.get("a/b", tmp.resolve("copy"));

    Path root = tmp.resolve("objects");
    assertThat(Files.readAllBytes(root.resolve("a/b"))).isEqualTo(bytes("1"));
    try (Stream<Path> files = Files.walk(tmp)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(ObjectNames.TEMP_MARKER));
    }
  }

  @Test
  void sharedGetsLinkInsteadOfCopying() throws Exception {
    store.put("a/big.sst", new byte[1 << 20]);
    Path target = tmp.resolve("cache").resolve("big.sst");
    store.getShared("a/big.sst", target);
    assertThat(Files.isSameFile(target, tmp.resolve("objects").resolve("a/big.sst"))).isTrue();
    store.get("a/big.sst", tmp.resolve("copy"));
    assertThat(Files.isSameFile(tmp.resolve("copy"), target)).as("a plain get copies").isFalse();
  }

  @Test
  void leftoverTempFilesOfACrashedWriterAreInvisible() throws Exception {
    Path root = tmp.resolve("objects");
    Files.createDirectories(root.resolve("a"));
    Files.write(root.resolve("a").resolve(ObjectNames.TEMP_MARKER + "123"), bytes("partial"));
    store.put("a/real", bytes("x"));

    assertThat(store.list("")).containsExactly("a/real");
  }

  @Test
  void urlIsAFileUri() {
    assertThat(store.url()).startsWith("file:///").contains("objects");
    assertThat(ObjectStores.open(store.url()).url()).isEqualTo(store.url());
  }
}
