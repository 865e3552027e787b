package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateSnapshot;
import io.tributary.state.WindowState;
import io.tributary.state.forst.rocks.TestCodecs.Window;
import io.tributary.state.forst.statecache.CachingKeyedStateBackend;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key whose cache slot was created while forst held nothing of it has all its windows in the
 * cache: its new windows are not looked up in RocksDB, even after a snapshot wrote its earlier
 * windows there. A key forst may hold (restored) is still read below.
 */
class CachedKeyPresenceTest {
  private static final KeyGroupRange ALL = new KeyGroupRange(0, 8);
  private static final Window FIRST = new Window(0, 10);
  private static final Window SECOND = new Window(10, 20);

  @TempDir
  Path tmp;
  ForstTestEnv env;
  ForstStateBackendFactory uncached;

  @BeforeEach
  void open() {
    env = new ForstTestEnv(tmp);
    uncached = ForstStateBackendFactory.fromConfig(
        new ForstConfig(env.store, tmp.resolve("uncached"), 1L << 30, 8L << 20, 16L << 20, 0));
  }

  @AfterEach
  void close() {
    uncached.close();
    env.close();
  }

  @Test
  void newWindowsOfAKeyCachedSinceItWasNewAreNotReadBelow() throws Exception {
    ForstKeyedStateBackend raw = (ForstKeyedStateBackend) uncached.create("job", "op", ALL, 8);
    StateSnapshot snap;
    try (CachingKeyedStateBackend b = new CachingKeyedStateBackend(raw, 10_000)) {
      WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
      for (long k = 0; k < 50; k++) {
        b.setCurrentKey(Key.of(k));
        w.put(FIRST, k);
      }
      b.snapshot(1).get(); // every key's first window is in RocksDB now, and in the key filters
      long before = raw.rocksReads();

      for (long k = 0; k < 50; k++) {
        b.setCurrentKey(Key.of(k));
        assertThat(w.get(SECOND)).isNull();
        w.put(SECOND, 100 + k);
        assertThat(w.get(FIRST)).isEqualTo(k);
      }
      for (long k = 1000; k < 1050; k++) { // keys never seen
        b.setCurrentKey(Key.of(k));
        assertThat(w.get(FIRST)).isNull();
      }
      assertThat(raw.rocksReads()).as("reads that reached RocksDB").isEqualTo(before);

      b.setCurrentKey(Key.of(7));
      w.remove(FIRST);
      snap = b.snapshot(2).get();
    }

    ForstKeyedStateBackend restoredRaw =
        (ForstKeyedStateBackend) uncached.restore("job", "op", ALL, 8, List.of(snap));
    try (CachingKeyedStateBackend b = new CachingKeyedStateBackend(restoredRaw, 10_000)) {
      WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
      b.setCurrentKey(Key.of(3));
      assertThat(w.get(SECOND)).as("a restored key is read below").isEqualTo(103L);
      assertThat(w.get(FIRST)).isEqualTo(3L);
      assertThat(w.windows()).containsExactlyInAnyOrder(FIRST, SECOND);
      b.setCurrentKey(Key.of(7));
      assertThat(w.windows()).containsExactly(SECOND);
      assertThat(restoredRaw.rocksReads()).isPositive();
    }
  }

  @Test
  void aKeyWrittenDownKeepsItsEmptySlotSoItsNextWindowIsNotReadBelow() throws Exception {
    ForstKeyedStateBackend raw = (ForstKeyedStateBackend) uncached.create("job", "op", ALL, 8);
    try (CachingKeyedStateBackend b = new CachingKeyedStateBackend(raw, 10_000)) {
      WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
      for (long k = 0; k < 50; k++) {
        b.setCurrentKey(Key.of(k));
        w.put(FIRST, k);
      }
      b.snapshot(1).get();
      for (long k = 0; k < 50; k++) { // the windows fire
        b.setCurrentKey(Key.of(k));
        w.remove(FIRST);
      }
      b.snapshot(2).get(); // the removals reach RocksDB; the key filters still say "maybe"
      long before = raw.rocksReads();

      for (long k = 0; k < 50; k++) {
        b.setCurrentKey(Key.of(k));
        assertThat(w.get(SECOND)).isNull();
        w.put(SECOND, k);
      }
      assertThat(raw.rocksReads()).as("reads that reached RocksDB").isEqualTo(before);
      b.setCurrentKey(Key.of(3));
      assertThat(w.windows()).containsExactly(SECOND);
    }
  }
}
