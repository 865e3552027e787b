package io.tributary.state.forst.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.forst.store.FaultyObjectStore;
import io.tributary.state.forst.store.InstrumentedObjectStore;
import io.tributary.state.forst.store.LocalObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCacheTest {
  @TempDir Path tmp;
  FaultyObjectStore faulty;
  InstrumentedObjectStore store;

  @BeforeEach
  void setUp() throws IOException {
    faulty = new FaultyObjectStore(new LocalObjectStore(tmp.resolve("store")));
    store = new InstrumentedObjectStore(faulty);
    for (int i = 0; i < 5; i++) {
      store.put("f/" + i, content(i, 100));
    }
  }

  @Test
  void missDownloadsThenHitsServeTheLocalFile() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 1000);
    try (FileCache.Handle h = cache.acquire("f/1")) {
      assertThat(Files.readAllBytes(h.path())).isEqualTo(content(1, 100));
      assertThat(h.path()).startsWith(tmp.resolve("cache"));
    }
    try (FileCache.Handle h = cache.acquire("f/1")) {
      assertThat(Files.readAllBytes(h.path())).isEqualTo(content(1, 100));
    }
    assertThat(cache.metrics()).isEqualTo(new FileCacheMetrics(1, 1, 0, 100, 1, 100));
    assertThat(store.metrics().gets()).isEqualTo(1);
    assertThat(cache.contains("f/1")).isTrue();
  }

  @Test
  void evictsLeastRecentlyUsedUnpinnedFilesOverBudget() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 250);
    touch(cache, "f/0");
    touch(cache, "f/1");
    touch(cache, "f/0"); // f/1 is now least recently used
    touch(cache, "f/2");

    assertThat(cache.contains("f/0")).isTrue();
    assertThat(cache.contains("f/1")).isFalse();
    assertThat(cache.contains("f/2")).isTrue();
    assertThat(Files.exists(tmp.resolve("cache/f/1"))).isFalse();
    assertThat(cache.metrics().evictions()).isEqualTo(1);
    assertThat(cache.metrics().cachedBytes()).isEqualTo(200);
  }

  @Test
  void pinnedFilesAreNeverEvictedEvenOverBudget() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 150);
    try (FileCache.Handle a = cache.acquire("f/0"); FileCache.Handle b = cache.acquire("f/1")) {
      assertThat(cache.metrics().cachedBytes()).isEqualTo(200);
      assertThat(Files.readAllBytes(a.path())).isEqualTo(content(0, 100));
      assertThat(Files.readAllBytes(b.path())).isEqualTo(content(1, 100));
    }
    assertThat(cache.metrics().cachedBytes()).isEqualTo(100);
    assertThat(cache.metrics().evictions()).isEqualTo(1);
  }

  @Test
  void adoptedFilesAreServedWithoutDownload() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 1000);
    Path written = tmp.resolve("checkpoint/000009.sst");
    Files.createDirectories(written.getParent());
    Files.write(written, content(9, 50));
    cache.adopt("shared/abc.sst", written).close();

    assertThat(Files.exists(written)).isFalse();
    try (FileCache.Handle h = cache.acquire("shared/abc.sst")) {
      assertThat(Files.readAllBytes(h.path())).isEqualTo(content(9, 50));
    }
    assertThat(store.metrics().gets()).isZero();
    assertThat(cache.metrics().cachedBytes()).isEqualTo(50);
  }

  @Test
  void wipingTheDirectoryOnlyCausesRedownloads() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 1000);
    touch(cache, "f/0");
    try (FileCache.Handle pinned = cache.acquire("f/1")) {
      pinned.path();
      CacheDirectory.reset(tmp.resolve("cache"));
      Files.delete(tmp.resolve("cache"));

      assertThat(Files.readAllBytes(pinned.path())).isEqualTo(content(1, 100));
      try (FileCache.Handle h = cache.acquire("f/0")) {
        assertThat(Files.readAllBytes(h.path())).isEqualTo(content(0, 100));
      }
    }
    assertThat(cache.metrics().misses()).isEqualTo(4);
    assertThat(cache.metrics().cachedBytes()).isEqualTo(200);
  }

  @Test
  void aWipeDuringADownloadIsRetried() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 1000);
    AtomicInteger wipes = new AtomicInteger();
    faulty.afterGet(() -> {
      if (wipes.getAndIncrement() == 0) {
        try {
          CacheDirectory.reset(tmp.resolve("cache"));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    });
    try (FileCache.Handle h = cache.acquire("f/4")) {
      assertThat(Files.readAllBytes(h.path())).isEqualTo(content(4, 100));
    }
    assertThat(wipes.get()).isEqualTo(2);
    assertThat(cache.metrics().cachedBytes()).isEqualTo(100);
  }

  @Test
  void failedDownloadsPinNothingAndCanBeRetried() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 0);
    faulty.failNth(FaultyObjectStore.Op.GET, 1);
    assertThatThrownBy(() -> cache.acquire("f/2")).isInstanceOf(IOException.class).hasMessageContaining("injected");
    assertThatThrownBy(() -> cache.acquire("absent")).isInstanceOf(NoSuchFileException.class);
    assertThat(cache.metrics().cachedFiles()).isZero();

    try (FileCache.Handle h = cache.acquire("f/2")) {
      assertThat(Files.readAllBytes(h.path())).isEqualTo(content(2, 100));
    }
    assertThat(cache.metrics().cachedFiles()).isZero(); // budget 0: evicted on release
    assertThat(Files.exists(tmp.resolve("cache/f/2"))).isFalse();
  }

  @Test
  void closedHandlesRefuseUseAndDoubleCloseIsHarmless() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 1000);
    FileCache.Handle h = cache.acquire("f/0");
    cache.release(h);
    h.close();
    assertThatThrownBy(h::path).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void concurrentAcquiresOfOneFileDownloadItOnce() throws Exception {
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 1000);
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<byte[]>> reads = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        reads.add(pool.submit(() -> {
          start.await();
          try (FileCache.Handle h = cache.acquire("f/3")) {
            return Files.readAllBytes(h.path());
          }
        }));
      }
      start.countDown();
      for (Future<byte[]> r : reads) {
        assertThat(r.get()).isEqualTo(content(3, 100));
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(store.metrics().gets()).isEqualTo(1);
    assertThat(cache.metrics().hits() + cache.metrics().misses()).isEqualTo(threads);
  }

  @Test
  void startsEmptyAndCloseDeletesUnpinnedFiles() throws Exception {
    Files.createDirectories(tmp.resolve("cache/stale"));
    Files.write(tmp.resolve("cache/stale/x"), new byte[3]);
    FileCache cache = new FileCache(tmp.resolve("cache"), store, 1000);
    assertThat(Files.exists(tmp.resolve("cache/stale/x"))).isFalse();
    touch(cache, "f/0");
    cache.close();
    assertThat(Files.exists(tmp.resolve("cache/f/0"))).isFalse();
    assertThat(cache.metrics().cachedFiles()).isZero();
  }

  private static void touch(FileCache cache, String name) throws IOException {
    try (FileCache.Handle h = cache.acquire(name)) {
      h.path();
    }
  }

  static byte[] content(int seed, int size) {
    byte[] b = new byte[size];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }
}
