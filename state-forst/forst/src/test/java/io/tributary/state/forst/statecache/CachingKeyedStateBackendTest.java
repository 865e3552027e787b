package io.tributary.state.forst.statecache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Combiner;
import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.MapState;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import io.tributary.state.forst.rocks.ForstConfig;
import io.tributary.state.forst.rocks.ForstStateBackendFactory;
import io.tributary.state.forst.statecache.Codecs.Acc;
import io.tributary.state.forst.statecache.Codecs.Window;
import io.tributary.state.forst.store.LocalObjectStore;
import io.tributary.state.heap.HeapKeyedStateBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state cache in front of RocksDB must be indistinguishable from the backend without it: random
 * operations on every state kind agree with the heap backend and with uncached RocksDB, whatever the
 * bound, across snapshots, and snapshots restore exactly what was written before them.
 */
class CachingKeyedStateBackendTest {
  private static final int MAX_PARALLELISM = 8;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM);
  private static final int KEYS = 40;

  @TempDir
  Path tmp;
  LocalObjectStore store;
  List<ForstStateBackendFactory> factories = new ArrayList<>();

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(tmp.resolve("objects"));
  }

  @AfterEach
  void close() {
    factories.forEach(ForstStateBackendFactory::close);
    store.close();
  }

  private ForstStateBackendFactory factory(String local, long cacheEntries) {
    ForstStateBackendFactory f = ForstStateBackendFactory.fromConfig(
        new ForstConfig(store, tmp.resolve(local), 1L << 30, 8L << 20, 16L << 20, cacheEntries));
    factories.add(f);
    return f;
  }

  @Test
  void randomOperationsAgreeWithTheHeapBackendAndUncachedRocksDb() throws Exception {
    long seed = System.nanoTime();
    System.out.println("CachingKeyedStateBackendTest seed = " + seed);
    Random r = new Random(seed);
    List<KeyedStateBackend> backends = List.of(
        new HeapKeyedStateBackend(ALL, MAX_PARALLELISM),
        factory("uncached", 0).create("job", "uncached", ALL, MAX_PARALLELISM),
        factory("tiny", 3).create("job", "tiny", ALL, MAX_PARALLELISM),
        factory("small", 25).create("job", "small", ALL, MAX_PARALLELISM),
        factory("large", 100_000).create("job", "large", ALL, MAX_PARALLELISM),
        new CachingKeyedStateBackend(factory("behind", 0).create("job", "behind", ALL, MAX_PARALLELISM), 100_000, 3,
            new LongAdder(), new LongAdder()));
    List<RandomOps> ops = backends.stream().map(RandomOps::new).toList();
    try {
      for (int i = 0; i < 6_000; i++) {
        RandomOps.Op op = RandomOps.draw(r, KEYS);
        String expected = ops.get(0).apply(op);
        for (int b = 1; b < ops.size(); b++) {
          assertThat(ops.get(b).apply(op)).as("op %d %s on backend %d (seed %d)", i, op, b, seed).isEqualTo(expected);
          if (RandomOps.adds(op) && ops.get(b).lastAddHad) { // the heap knows; the others may not tell
            assertThat(ops.get(0).lastAddHad).as("add said the window or entry had an accumulator: op %d on backend %d (seed %d)",
                i, b, seed).isTrue();
          }
        }
        for (int b = 2; b < backends.size(); b++) {
          StateCache cache = ((CachingKeyedStateBackend) backends.get(b)).cache();
          assertThat(cache.entries()).as("entries counted after op %d on backend %d (seed %d)", i, b, seed)
              .isEqualTo(cache.recount());
        }
        if (r.nextInt(500) == 0) {
          for (int b = 1; b < backends.size(); b++) {
            backends.get(b).snapshot(i).get();
          }
        }
      }
      for (long k = 0; k < KEYS; k++) {
        String expected = ops.get(0).dump(k);
        for (int b = 1; b < ops.size(); b++) {
          assertThat(ops.get(b).dump(k)).as("key %d on backend %d (seed %d)", k, b, seed).isEqualTo(expected);
        }
      }
      assertThat(((CachingKeyedStateBackend) backends.get(2)).evictions()).isPositive();
      assertThat(((CachingKeyedStateBackend) backends.get(5)).writtenBehind()).isPositive();
    } finally {
      backends.forEach(KeyedStateBackend::close);
    }
  }

  @Test
  void keysThatComeAndGoLeaveNoSlotsBehind() throws Exception {
    try (KeyedStateBackend b = factory("churn", 100_000).create("job", "churn", ALL, MAX_PARALLELISM)) {
      WindowState<Window, Acc> w = b.windowState("w", Codecs.WINDOW, Codecs.ACC);
      ValueState<Long> v = b.valueState("v", Codecs.LONG);
      b.setCurrentKey(Key.of(-1));
      v.update(1L);
      b.snapshot(1).get(); // shards exist now: the keys below are ruled out by their filters
      StateCache cache = ((CachingKeyedStateBackend) b).cache();
      long before = cache.entries();
      for (long k = 0; k < 5_000; k++) { // like auctions: a window opens, fires and is gone
        b.setCurrentKey(Key.of(k));
        assertThat(w.get(new Window(0, 10))).isNull();
        w.put(new Window(0, 10), new Acc(1, k));
        w.remove(new Window(0, 10));
      }
      assertThat(cache.entries()).as("cached entries and slots").isEqualTo(before);
      assertThat(((CachingKeyedStateBackend) b).evictions()).isZero();
    }
  }

  @Test
  void readsOfKeysThatHaveNothingKeepNoSlots() throws Exception {
    try (KeyedStateBackend b = factory("probes", 100_000).create("job", "probes", ALL, MAX_PARALLELISM)) {
      MapState<String, Long> m = b.mapState("m", Codecs.STRING, Codecs.LONG);
      WindowState<Window, Acc> w = b.windowState("w", Codecs.WINDOW, Codecs.ACC);
      ValueState<Long> v = b.valueState("v", Codecs.LONG);
      b.setCurrentKey(Key.of(-1));
      m.put("a", 1L);
      b.snapshot(1).get(); // shards exist now: the keys below are ruled out by their filters
      StateCache cache = ((CachingKeyedStateBackend) b).cache();
      long before = cache.entries();
      for (long k = 0; k < 5_000; k++) { // like a join probing the other side with each record's key
        b.setCurrentKey(Key.of(k));
        assertThat(m.get("a")).isNull();
        assertThat(m.entries()).isEmpty();
        assertThat(m.isEmpty()).isTrue();
        m.clear();
        assertThat(w.windows()).isEmpty();
        assertThat(w.get(new Window(0, 10))).isNull();
        assertThat(v.value()).isNull();
      }
      assertThat(cache.entries()).as("cached entries and slots").isEqualTo(before);
      b.setCurrentKey(Key.of(-1));
      assertThat(m.entries()).extracting(Map.Entry::getValue).containsExactly(1L);
    }
  }

  @Test
  void aTinyBoundEvictsLeastRecentlyUsedKeysWritingTheirChangesDown() {
    HeapKeyedStateBackend inner = new HeapKeyedStateBackend(ALL, MAX_PARALLELISM);
    try (CachingKeyedStateBackend cached = new CachingKeyedStateBackend(inner, 10)) {
      ValueState<Long> v = cached.valueState("v", Codecs.LONG);
      ValueState<Long> below = inner.valueState("v", Codecs.LONG);
      for (long k = 0; k < 100; k++) {
        cached.setCurrentKey(Key.of(k));
        v.update(k);
      }
      assertThat(cached.evictions()).isGreaterThanOrEqualTo(95);
      inner.setCurrentKey(Key.of(0L));
      assertThat(below.value()).as("evicted long ago: written down").isEqualTo(0L);
      inner.setCurrentKey(Key.of(99L));
      assertThat(below.value()).as("just written: only in the cache").isNull();
      for (long k = 0; k < 100; k++) {
        cached.setCurrentKey(Key.of(k));
        assertThat(v.value()).isEqualTo(k);
      }
    }
  }

  @Test
  void beyondTheDirtyBoundTheLeastRecentlyUsedDirtyKeysAreWrittenDownAndStayCached() {
    HeapKeyedStateBackend inner = new HeapKeyedStateBackend(ALL, MAX_PARALLELISM);
    LongAdder hits = new LongAdder();
    LongAdder misses = new LongAdder();
    try (CachingKeyedStateBackend cached = new CachingKeyedStateBackend(inner, 1_000, 10, hits, misses)) {
      ValueState<Long> v = cached.valueState("v", Codecs.LONG);
      ValueState<Long> below = inner.valueState("v", Codecs.LONG);
      for (long k = 0; k < 100; k++) {
        cached.setCurrentKey(Key.of(k));
        v.update(k);
        cached.setCurrentKey(Key.of(-1L)); // used after every other key: always the most recent dirty one
        v.update(-k);
      }
      StateCache cache = cached.cache();
      assertThat(cache.dirtySlots()).isEqualTo(10);
      assertThat(cached.writtenBehind()).isEqualTo(91);
      assertThat(cached.evictions()).as("all fit: nothing was evicted").isZero();
      inner.setCurrentKey(Key.of(0L));
      assertThat(below.value()).as("dirtied long ago: written down").isEqualTo(0L);
      inner.setCurrentKey(Key.of(-1L));
      assertThat(below.value()).as("used all the time: never written down").isNull();
      inner.setCurrentKey(Key.of(99L));
      assertThat(below.value()).as("just written: only in the cache").isNull();
      assertThat(cache.dirtyKeys()).containsExactlyInAnyOrder(Key.of(-1L), Key.of(91L), Key.of(92L), Key.of(93L),
          Key.of(94L), Key.of(95L), Key.of(96L), Key.of(97L), Key.of(98L), Key.of(99L));
      cache.publishReads();
      long missesBefore = misses.sum();
      for (long k = 0; k < 100; k++) {
        cached.setCurrentKey(Key.of(k));
        assertThat(v.value()).isEqualTo(k);
      }
      cache.publishReads();
      assertThat(misses.sum()).as("written down keys stay cached").isEqualTo(missesBefore);
      cache.flushAll(); // what a snapshot does first
      assertThat(cache.dirtySlots()).isZero();
      assertThat(cache.dirtyKeys()).isEmpty();
      inner.setCurrentKey(Key.of(-1L));
      assertThat(below.value()).isEqualTo(-99L);
    }
  }

  @Test
  void removalsOfWrittenDownEntriesReachTheInnerBackend() {
    HeapKeyedStateBackend inner = new HeapKeyedStateBackend(ALL, MAX_PARALLELISM);
    try (CachingKeyedStateBackend cached = new CachingKeyedStateBackend(inner, 2)) {
      WindowState<Window, Acc> w = cached.windowState("w", Codecs.WINDOW, Codecs.ACC);
      cached.setCurrentKey(Key.of(1L));
      w.put(new Window(0, 10), new Acc(1, 1));
      cached.setCurrentKey(Key.of(2L));
      w.put(new Window(0, 10), new Acc(2, 2)); // evicts key 1
      cached.setCurrentKey(Key.of(1L));
      w.remove(new Window(0, 10)); // a tombstone, written when key 1 goes again
      assertThat(w.windows()).isEmpty();
      cached.setCurrentKey(Key.of(2L));
      w.get(new Window(0, 10));
      inner.setCurrentKey(Key.of(1L));
      assertThat(inner.windowState("w", Codecs.WINDOW, Codecs.ACC).windows()).isEmpty();
    }
  }

  @Test
  void snapshotWritesTheCacheDownFirst() throws Exception {
    ForstStateBackendFactory f = factory("first", 100_000);
    StateSnapshot first;
    StateSnapshot second;
    try (KeyedStateBackend b = f.create("job", "op", ALL, MAX_PARALLELISM)) {
      ValueState<Long> v = b.valueState("v", Codecs.LONG);
      WindowState<Window, Acc> w = b.windowState("w", Codecs.WINDOW, Codecs.ACC);
      for (long k = 0; k < 50; k++) {
        b.setCurrentKey(Key.of(k));
        v.update(k);
        w.put(new Window(0, 10), new Acc(k, k));
        w.put(new Window(10, 20), new Acc(1, 1));
      }
      first = b.snapshot(1).get();
      for (long k = 0; k < 50; k++) {
        b.setCurrentKey(Key.of(k));
        Acc acc = w.get(new Window(0, 10));
        acc.count += 100; // in place, then put back
        w.put(new Window(0, 10), acc);
        w.remove(new Window(10, 20));
        if (k % 2 == 0) {
          v.clear();
        }
      }
      second = b.snapshot(2).get();
      b.setCurrentKey(Key.of(3L));
      v.update(-1L); // after the snapshot: must not be in it
    }
    assertThat(first.manifests()).isNotEmpty();
    try (KeyedStateBackend b = factory("fresh", 0).restore("job", "op", ALL, MAX_PARALLELISM, List.of(second))) {
      ValueState<Long> v = b.valueState("v", Codecs.LONG);
      WindowState<Window, Acc> w = b.windowState("w", Codecs.WINDOW, Codecs.ACC);
      for (long k = 0; k < 50; k++) {
        b.setCurrentKey(Key.of(k));
        assertThat(v.value()).as("value of %d", k).isEqualTo(k % 2 == 0 ? null : k);
        assertThat(w.windows()).as("windows of %d", k).containsExactly(new Window(0, 10));
        assertThat(w.get(new Window(0, 10)).count).as("count of %d", k).isEqualTo(k + 100);
      }
    }
  }

  @Test
  void windowsIncludeCachedWindowsAndOmitCachedRemovals() throws Exception {
    try (KeyedStateBackend b = factory("local", 100_000).create("job", "op", ALL, MAX_PARALLELISM)) {
      WindowState<Window, Acc> w = b.windowState("w", Codecs.WINDOW, Codecs.ACC);
      b.setCurrentKey(Key.of("k"));
      w.put(new Window(0, 10), new Acc(1, 1));
      w.put(new Window(10, 20), new Acc(1, 1));
      b.snapshot(1).get(); // both now in RocksDB too
      w.remove(new Window(0, 10));
      w.put(new Window(20, 30), new Acc(1, 1));
      assertThat(w.windows()).containsExactlyInAnyOrder(new Window(10, 20), new Window(20, 30));
    }
  }

  @Test
  void countsTheReadsItAnsweredAndThoseThatWentBelow() {
    java.util.concurrent.atomic.LongAdder hits = new java.util.concurrent.atomic.LongAdder();
    java.util.concurrent.atomic.LongAdder misses = new java.util.concurrent.atomic.LongAdder();
    HeapKeyedStateBackend inner = new HeapKeyedStateBackend(ALL, MAX_PARALLELISM);
    inner.setCurrentKey(Key.of(1L));
    inner.windowState("w", Codecs.WINDOW, Codecs.ACC).put(new Window(0, 10), new Acc(1, 1));
    try (CachingKeyedStateBackend cached = new CachingKeyedStateBackend(inner, 2, hits, misses)) {
      WindowState<Window, Acc> w = cached.windowState("w", Codecs.WINDOW, Codecs.ACC);
      cached.setCurrentKey(Key.of(1L));
      w.get(new Window(0, 10)); // below
      w.get(new Window(0, 10)); // cached
      w.get(new Window(10, 20)); // below: the slot of a key the inner backend holds is not complete
      cached.setCurrentKey(Key.of(2L));
      w.put(new Window(0, 10), new Acc(2, 2)); // evicts key 1
      w.get(new Window(0, 10)); // cached
      cached.setCurrentKey(Key.of(1L));
      w.get(new Window(0, 10)); // below again
      assertThat(hits.sum() + misses.sum()).as("published in batches, at the latest on close").isZero();
    }
    assertThat(hits.sum()).isEqualTo(2);
    assertThat(misses.sum()).isEqualTo(3);
  }

  @Test
  void windowsAddedToOutOfTheCacheAreFoldedBelowNowAndThen() {
    java.util.concurrent.atomic.AtomicInteger combined = new java.util.concurrent.atomic.AtomicInteger();
    Combiner<Acc> combiner = (into, delta) -> {
      combined.incrementAndGet();
      into.count += delta.count;
      into.sum += delta.sum;
    };
    KeyedStateBackend inner = factory("fold", 0).create("job", "fold", ALL, MAX_PARALLELISM);
    try (CachingKeyedStateBackend cached = new CachingKeyedStateBackend(inner, 1)) {
      WindowState<Window, Acc> w = cached.windowState("w", Codecs.WINDOW, Codecs.ACC, combiner);
      Window window = new Window(0, 10);
      for (int i = 0; i < 800; i++) { // keys 1 and 2 take turns: each add finds its key evicted
        cached.setCurrentKey(Key.of(1L));
        w.add(window, new Acc(1, i));
        cached.setCurrentKey(Key.of(2L));
        w.add(window, new Acc(1, i));
      }
      assertThat(cached.evictions()).isGreaterThanOrEqualTo(1599);
      WindowState<Window, Acc> below = inner.windowState("w", Codecs.WINDOW, Codecs.ACC, combiner);
      inner.setCurrentKey(Key.of(1L));
      combined.set(0);
      Acc acc = below.get(window);
      assertThat(acc.count).isEqualTo(800);
      assertThat(acc.sum).isEqualTo(799 * 800 / 2);
      assertThat(combined.get() + 1).as("accumulators in key 1's value below (800 without folding)")
          .isBetween(1, 100);
      cached.setCurrentKey(Key.of(2L));
      assertThat(w.get(window).count).isEqualTo(800);
    }
  }

  @Test
  void aClosedBackendRefusesUse() {
    CachingKeyedStateBackend b = new CachingKeyedStateBackend(new HeapKeyedStateBackend(ALL, MAX_PARALLELISM), 10);
    ValueState<Long> v = b.valueState("v", Codecs.LONG);
    b.setCurrentKey(Key.of(1L));
    v.update(1L);
    b.close();
    assertThatThrownBy(v::value).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }
}
