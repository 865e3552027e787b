package io.tributary.state.forst.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.store.ObjectStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The behaviour every {@link ObjectStore} must show; subclasses supply a fresh, empty store. */
abstract class ObjectStoreContract {
  @TempDir Path tmp;
  ObjectStore store;

  /** A fresh, empty store. */
  abstract ObjectStore newStore() throws Exception;

  @BeforeEach
  void openStore() throws Exception {
    store = newStore();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void putBytesThenReadThemBackInEveryWay() throws Exception {
    store.put("a/b/c.bin", bytes("hello"));

    assertThat(store.getBytes("a/b/c.bin")).isEqualTo(bytes("hello"));
    assertThat(store.exists("a/b/c.bin")).isTrue();
    assertThat(store.size("a/b/c.bin")).isEqualTo(5);
    try (InputStream in = store.open("a/b/c.bin")) {
      assertThat(in.readAllBytes()).isEqualTo(bytes("hello"));
    }
    Path target = tmp.resolve("out/target.bin");
    Files.createDirectories(target.getParent());
    Files.write(target, bytes("old content that is longer"));
    store.get("a/b/c.bin", target);
    assertThat(Files.readAllBytes(target)).isEqualTo(bytes("hello"));
  }

  @Test
  void putAllWritesEveryObjectAndReplacesExistingOnes() throws Exception {
    store.put("chk-1/kg-2.json", bytes("older"));
    java.util.Map<String, byte[]> objects = new java.util.LinkedHashMap<>();
    for (int g = 0; g < 5; g++) {
      objects.put("chk-1/kg-" + g + ".json", bytes("manifest " + g));
    }
    objects.put("chk-1/other/x.json", bytes("elsewhere"));

    store.putAll(objects);

    for (java.util.Map.Entry<String, byte[]> e : objects.entrySet()) {
      assertThat(store.getBytes(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
    }
    assertThat(store.list("chk-1/")).hasSize(6);
  }

  @Test
  void putFromFileAndReplace() throws Exception {
    Path file = tmp.resolve("upload.sst");
    byte[] big = new byte[300_000];
    new java.util.Random(7).nextBytes(big);
    Files.write(file, big);

    store.put("x.sst", file);
    assertThat(store.getBytes("x.sst")).isEqualTo(big);
    store.put("x.sst", bytes("small"));
    assertThat(store.getBytes("x.sst")).isEqualTo(bytes("small"));
    assertThat(store.size("x.sst")).isEqualTo(5);
  }

  @Test
  void rangesReadJustTheirBytes() throws Exception {
    byte[] big = new byte[100_000];
    new java.util.Random(11).nextBytes(big);
    store.put("log", big);

    assertThat(store.getRange("log", 0, 10)).isEqualTo(java.util.Arrays.copyOfRange(big, 0, 10));
    assertThat(store.getRange("log", 54_321, 40_000)).isEqualTo(java.util.Arrays.copyOfRange(big, 54_321, 94_321));
    assertThat(store.getRange("log", 99_999, 1)).containsExactly(big[99_999]);
    assertThat(store.getRange("log", 500, 0)).isEmpty();
    assertThatThrownBy(() -> store.getRange("log", 99_990, 20)).isInstanceOf(java.io.EOFException.class);
    assertThatThrownBy(() -> store.getRange("nope", 0, 1)).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void copyMakesAnIndependentObjectAndReplacesTheTarget() throws Exception {
    store.put("sp/src.sst", bytes("state"));
    store.put("copies/x/dst.sst", bytes("older content"));

    store.copy("sp/src.sst", "copies/x/dst.sst");
    store.copy("sp/src.sst", "elsewhere/dst.sst");
    store.delete("sp/src.sst");
    store.put("copies/x/dst.sst", bytes("replaced"));

    assertThat(store.getBytes("elsewhere/dst.sst")).isEqualTo(bytes("state"));
    assertThat(store.getBytes("copies/x/dst.sst")).isEqualTo(bytes("replaced"));
    assertThatThrownBy(() -> store.copy("sp/src.sst", "again")).isInstanceOf(NoSuchFileException.class);
    assertThat(store.exists("again")).isFalse();
  }

  @Test
  void sharedGetsSurviveDeletesAndReplacementsOfTheObject() throws Exception {
    store.put("shared/x.sst", bytes("immutable"));
    Path target = tmp.resolve("cache").resolve("x.sst");
    Files.createDirectories(target.getParent());
    Files.write(target, bytes("stale local copy"));

    store.getShared("shared/x.sst", target);
    store.put("shared/x.sst", bytes("a new object under the old name"));
    assertThat(Files.readAllBytes(target)).isEqualTo(bytes("immutable"));
    store.delete("shared/x.sst");
    assertThat(Files.readAllBytes(target)).isEqualTo(bytes("immutable"));
    assertThatThrownBy(() -> store.getShared("shared/x.sst", tmp.resolve("y"))).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void emptyObjectsAreObjects() throws Exception {
    store.put("empty", new byte[0]);
    assertThat(store.exists("empty")).isTrue();
    assertThat(store.size("empty")).isZero();
    assertThat(store.getBytes("empty")).isEmpty();
  }

  @Test
  void absentObjects() throws Exception {
    assertThat(store.exists("nope")).isFalse();
    assertThat(store.size("nope")).isEqualTo(-1);
    assertThatThrownBy(() -> store.getBytes("nope")).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> store.get("nope", tmp.resolve("t"))).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> store.open("nope").close()).isInstanceOf(NoSuchFileException.class);
    assertThat(Files.exists(tmp.resolve("t"))).isFalse();
    store.delete("nope");
  }

  @Test
  void putIfAbsentWritesOnlyOnce() throws Exception {
    assertThat(store.putIfAbsent("ptr/latest", bytes("one"))).isTrue();
    assertThat(store.putIfAbsent("ptr/latest", bytes("two"))).isFalse();
    assertThat(store.getBytes("ptr/latest")).isEqualTo(bytes("one"));
    store.put("plain", bytes("p"));
    assertThat(store.putIfAbsent("plain", bytes("q"))).isFalse();
    assertThat(store.getBytes("plain")).isEqualTo(bytes("p"));
  }

  @Test
  void concurrentPutIfAbsentHasExactlyOneWinner() throws Exception {
    int threads = 6;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        byte[] content = bytes("writer-" + i);
        Callable<Boolean> race = () -> {
          start.await();
          return store.putIfAbsent("race/commit", content);
        };
        results.add(pool.submit(race));
      }
      start.countDown();
      int winners = 0;
      for (Future<Boolean> r : results) {
        winners += r.get() ? 1 : 0;
      }
      assertThat(winners).isEqualTo(1);
      assertThat(new String(store.getBytes("race/commit"), UTF_8)).startsWith("writer-");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void deleteRemoves() throws Exception {
    store.put("d/1", bytes("1"));
    store.delete("d/1");
    assertThat(store.exists("d/1")).isFalse();
    assertThat(store.list("d/")).isEmpty();
  }

  @Test
  void listIsSortedAndFilteredByPrefix() throws Exception {
    for (String name : List.of("s/b/2", "s/a", "s/b/1", "s/bb", "t/x", "s2")) {
      store.put(name, bytes(name));
    }
    assertThat(store.list("s/")).containsExactly("s/a", "s/b/1", "s/b/2", "s/bb");
    assertThat(store.list("s/b")).containsExactly("s/b/1", "s/b/2", "s/bb");
    assertThat(store.list("s")).containsExactly("s/a", "s/b/1", "s/b/2", "s/bb", "s2");
    assertThat(store.list("")).containsExactly("s/a", "s/b/1", "s/b/2", "s/bb", "s2", "t/x");
    assertThat(store.list("nothing/")).isEmpty();
  }

  @Test
  void invalidNamesAreRejected() {
    for (String bad : List.of("", "/abs", "a/../b", "..", "a//b", "a/", "./a", "a\\b", ".tmp-x")) {
      assertThatThrownBy(() -> store.put(bad, bytes("x")))
          .as("name '%s'", bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.getBytes(bad))
          .as("name '%s'", bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void urlNamesTheStore() {
    assertThat(store.url()).isNotBlank();
  }

  static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }
}
