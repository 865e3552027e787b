package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import io.tributary.state.forst.rocks.TestCodecs.Window;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForstSnapshotRestoreTest {
  private static final int MAX_PARALLELISM = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM);
  private static final int KEYS = 20_000;

  @TempDir
  Path tmp;
  ForstTestEnv env;

  @BeforeEach
  void open() {
    env = new ForstTestEnv(tmp);
  }

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void restoreAfterWipingTheLocalDiskLosesNothing() throws Exception {
    StateSnapshot snap;
    try (KeyedStateBackend b = env.factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, 0, KEYS, 1);
      snap = b.snapshot(1).get();
    }
    env.restartWipingLocalDisk();
    try (KeyedStateBackend b = env.factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(snap))) {
      assertValues(b, 0, KEYS, 1);
      WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
      b.setCurrentKey(Key.of(5L));
      assertThat(w.windows()).containsExactly(new Window(0, 10));
    }
  }

  @Test
  void secondSnapshotUploadsOnlyWhatChanged() throws Exception {
    try (KeyedStateBackend b = env.factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, 0, KEYS, 1);
      StateSnapshot first = b.snapshot(1).get();
      write(b, 0, KEYS / 100, 2);
      StateSnapshot second = b.snapshot(2).get();
      System.out.printf("first snapshot uploaded %d B of %d B; second %d B of %d B%n", first.uploadedBytes(),
          first.stateBytes(), second.uploadedBytes(), second.stateBytes());
      assertThat(first.uploadedBytes()).isGreaterThan(100_000);
      assertThat(second.uploadedBytes()).isLessThan(first.uploadedBytes() / 5);
      StateSnapshot third = b.snapshot(3).get();
      assertThat(third.manifests()).isEqualTo(second.manifests());
      assertThat(third.uploadedBytes()).isZero();
    }
  }

  @Test
  void releasingASnapshotKeepsEveryFileARetainedOneReferences() throws Exception {
    StateSnapshot first;
    StateSnapshot second;
    try (KeyedStateBackend b = env.factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, 0, KEYS, 1);
      first = b.snapshot(1).get();
      write(b, 0, KEYS / 100, 2);
      second = b.snapshot(2).get();
    }
    Set<String> before = new HashSet<>(env.store.list("job/"));
    List<String> deleted = env.factory.release("job", "op", first);
    assertThat(deleted).isNotEmpty();
    Set<String> referenced = referencedBy(second);
    assertThat(deleted).doesNotContainAnyElementsOf(referenced);
    assertThat(env.store.list("job/")).containsAll(referenced);
    assertThat(before).containsAll(deleted);
    env.restartWipingLocalDisk();
    try (KeyedStateBackend b = env.factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(second))) {
      assertValues(b, 0, KEYS / 100, 2);
      assertValues(b, KEYS / 100, KEYS, 1);
    }
  }

  @Test
  void withPrefetchARestoredBackendOpensEveryKeyGroupInTheBackground() throws Exception {
    StateSnapshot snap = snapshotThenRestartWithPrefetch();
    KeyedStateBackend untouched = env.factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(snap));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (env.factory.metrics().shardsOpened() < snap.manifests().size() && System.nanoTime() < deadline) {
      Thread.onSpinWait(); // every key group opens without any access
    }
    assertThat(env.factory.metrics().shardsOpened()).isEqualTo(snap.manifests().size());
    untouched.close();
    try (KeyedStateBackend b = env.factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(snap))) {
      assertValues(b, 0, KEYS, 1);
      StateSnapshot again = b.snapshot(2).get();
      assertThat(again.manifests()).as("nothing changed: the restored manifests are referenced again")
          .isEqualTo(snap.manifests());
    }
  }

  @Test
  void aKeyGroupInUseOpensAtOnceWhileThePrefetchQueuesAndClosingDropsTheQueue() throws Exception {
    StateSnapshot snap = snapshotThenRestartWithPrefetch();
    // every thread of the shard pool busy: the prefetch can only queue
    CountDownLatch busy = new CountDownLatch(ForstEnvironment.SHARD_CHECKPOINT_THREADS);
    CountDownLatch release = new CountDownLatch(1);
    for (int i = 0; i < ForstEnvironment.SHARD_CHECKPOINT_THREADS; i++) {
      env.factory.environment().shardCheckpoints.execute(() -> {
        busy.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    busy.await();
    try {
      KeyedStateBackend b = env.factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(snap));
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertValues(b, 7, 8, 1),
          "the key group in use waits behind the queued prefetch");
      assertThat(env.factory.metrics().shardsOpened()).isEqualTo(1);
      assertTimeoutPreemptively(Duration.ofSeconds(60), b::close, "closing waits for queued openings");
      assertThat(env.factory.metrics().shardsOpened()).isEqualTo(1);
    } finally {
      release.countDown();
    }
  }

  @Test
  void restoreFetchesOnlyTheKeyGroupsThatAreTouched() throws Exception {
    StateSnapshot snap;
    try (KeyedStateBackend b = env.factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, 0, KEYS, 1);
      snap = b.snapshot(1).get();
    }
    env.restartWipingLocalDisk();
    try (KeyedStateBackend b = env.factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(snap))) {
      assertThat(env.factory.metrics().shardsOpened()).isZero();
      assertValues(b, 7, 8, 1);
      ForstMetrics m = env.factory.metrics();
      assertThat(m.shardsOpened()).isEqualTo(1);
      assertThat(m.bytesDownloaded()).isPositive().isLessThan(snap.stateBytes() / 4);
      StateSnapshot again = b.snapshot(2).get();
      assertThat(again.manifests()).isEqualTo(snap.manifests());
      assertThat(again.uploadedBytes()).isZero();
    }
  }

  /** Snapshots {@link #KEYS} keys, then a fresh process (empty local disk) that prefetches on restore. */
  private StateSnapshot snapshotThenRestartWithPrefetch() throws Exception {
    StateSnapshot snap;
    try (KeyedStateBackend b = env.factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, 0, KEYS, 1);
      snap = b.snapshot(1).get();
    }
    env.factory.close();
    SnapshotWriter.deleteQuietly(env.localDir);
    env.factory = ForstStateBackendFactory.fromConfig(
        new ForstConfig(env.store, env.localDir, 1L << 30, 8L << 20, 16L << 20).withPrefetchOnRestore(true));
    return snap;
  }

  static Set<String> referencedBy(StateSnapshot s) throws Exception {
    Set<String> names = new HashSet<>();
    for (String manifest : s.manifests().values()) {
      names.add(manifest);
    }
    return names;
  }

  /** Keys [from, to): value state = i * version, one window per key with i + version. */
  static void write(KeyedStateBackend b, int from, int to, long version) {
    ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
    WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
    for (long i = from; i < to; i++) {
      b.setCurrentKey(Key.of(i));
      v.update(i * version);
      w.put(new Window(0, 10), i + version);
    }
  }

  static void assertValues(KeyedStateBackend b, int from, int to, long version) {
    ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
    WindowState<Window, Long> w = b.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
    for (long i = from; i < to; i++) {
      b.setCurrentKey(Key.of(i));
      assertThat(v.value()).as("value of key %d", i).isEqualTo(i * version);
      assertThat(w.get(new Window(0, 10))).as("window of key %d", i).isEqualTo(i + version);
    }
  }
}
