package io.tributary.state.forst.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.forst.store.FaultyObjectStore;
import io.tributary.state.forst.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random acquire / release / wipe / failing downloads: every pinned handle always yields the
 * object's exact bytes, and once nothing is pinned the cache respects its budget.
 */
class FileCachePropertyTest {
  private static final int OBJECTS = 12;
  private static final long BUDGET = 1_000;

  @TempDir Path tmp;

  @Test
  void contentIsAlwaysRightAndTheBudgetHoldsWhenUnpinned() throws Exception {
    long seed = System.nanoTime();
    System.out.println("FileCachePropertyTest seed=" + seed);
    Random random = new Random(seed);
    FaultyObjectStore store = new FaultyObjectStore(new LocalObjectStore(tmp.resolve("store")));
    for (int i = 0; i < OBJECTS; i++) {
      store.put("o/" + i, FileCacheTest.content(i, 50 + 40 * i));
    }
    store.failRandomly(random, 0.1);
    FileCache cache = new FileCache(tmp.resolve("cache"), store, BUDGET);
    List<FileCache.Handle> pinned = new ArrayList<>();
    for (int step = 0; step < 400; step++) {
      step(random, cache, pinned);
      for (FileCache.Handle h : pinned) {
        check(h);
      }
    }
    pinned.forEach(FileCache.Handle::close);
    assertThat(cache.metrics().cachedBytes()).as("seed %d", seed).isLessThanOrEqualTo(BUDGET);
    assertThat(localBytes(tmp.resolve("cache"))).as("seed %d", seed).isLessThanOrEqualTo(BUDGET);
  }

  private static void step(Random random, FileCache cache, List<FileCache.Handle> pinned) throws IOException {
    int action = random.nextInt(10);
    if (action < 5) {
      int object = random.nextInt(OBJECTS);
      try {
        pinned.add(cache.acquire("o/" + object));
      } catch (IOException e) {
        assertThat(e).hasMessageContaining("injected");
      }
    } else if (action < 9 && !pinned.isEmpty()) {
      pinned.remove(random.nextInt(pinned.size())).close();
    } else if (action == 9) {
      CacheDirectory.reset(cache.directory());
    }
  }

  private static void check(FileCache.Handle h) throws IOException {
    int object = Integer.parseInt(h.name().substring(2));
    for (int attempt = 0; ; attempt++) {
      try {
        assertThat(Files.readAllBytes(h.path())).isEqualTo(FileCacheTest.content(object, 50 + 40 * object));
        return;
      } catch (IOException e) {
        if (attempt > 50 || !String.valueOf(e.getMessage()).contains("injected")) {
          throw e;
        }
      }
    }
  }

  private static long localBytes(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
