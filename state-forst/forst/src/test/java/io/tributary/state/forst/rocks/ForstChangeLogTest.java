package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.forst.store.FaultyObjectStore;
import io.tributary.state.forst.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots by change log: a snapshot of a few changes uploads just their log, materializations
 * spread over snapshots, and whatever mix of logged and materialized shards a snapshot references,
 * restoring it (after a wiped local disk, at another range) gives exactly the state it was taken of —
 * list appends (RocksDB merges) and deletions included, and after a failed upload too.
 */
class ForstChangeLogTest {
  private static final int MAX_PARALLELISM = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM);
  private static final int KEYS = 300;

  @TempDir
  Path tmp;
  private LocalObjectStore objects;
  private FaultyObjectStore store;
  private ForstStateBackendFactory factory;
  private int process;

  /** The model: per key its value, its list and its map. */
  private final Map<Long, Long> values = new HashMap<>();
  private final Map<Long, List<String>> lists = new HashMap<>();
  private final Map<Long, Map<String, Long>> maps = new HashMap<>();

  @BeforeEach
  void open() {
    objects = new LocalObjectStore(tmp.resolve("objects"));
    store = new FaultyObjectStore(objects);
    factory = newProcess(true);
  }

  @AfterEach
  void close() {
    factory.close();
    objects.close();
  }

  /** A factory with its own, empty local directory, as a fresh process has. */
  private ForstStateBackendFactory newProcess(boolean changeLog) {
    Path local = tmp.resolve("local-" + process++);
    return ForstStateBackendFactory.fromConfig(
        new ForstConfig(store, local, 1L << 30, 8L << 20, 16L << 20, 0).withChangeLog(changeLog));
  }

  @Test
  void aSnapshotOfAFewChangesUploadsTheirLogAndNoFiles() throws Exception {
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      Random r = new Random(1);
      for (int i = 0; i < 2000; i++) {
        mutate(b, r);
      }
      StateSnapshot first = b.snapshot(1).get();
      int sstsAfterFirst = objects.list("job/state/shared/").size();
      for (int i = 0; i < 20; i++) {
        mutate(b, r);
      }
      StateSnapshot second = b.snapshot(2).get();

      assertThat(second.uploadedBytes()).isPositive().isLessThan(4096);
      assertThat(objects.list("job/state/shared/")).hasSize(sstsAfterFirst);
      assertThat(objects.exists("job/state/op/chk-2/changes-0-16.log")).isTrue();
      List<ShardManifest> changed = manifests(second).stream().filter(m -> m.checkpointId() == 2).toList();
      assertThat(changed).isNotEmpty().allSatisfy(m -> assertThat(m.log()).isNotEmpty());
      assertThat(first.uploadedBytes()).isGreaterThan(second.uploadedBytes());
      latest = second;
    }
    factory.close();
    factory = newProcess(true);
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      assertMatchesModel(b);
    }
  }

  private StateSnapshot latest;

  @Test
  void manySnapshotsRestoreExactlyAndMaterializeAFewShardsAtATime() throws Exception {
    Random r = new Random(7);
    KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM);
    int materializations = 0;
    try {
      for (long chk = 1; chk <= 42; chk++) {
        int ops = 1 + r.nextInt(200);
        for (int i = 0; i < ops; i++) {
          mutate(b, r);
        }
        StateSnapshot s = b.snapshot(chk).get();
        long id = chk;
        List<ShardManifest> fresh = manifests(s).stream().filter(m -> m.checkpointId() == id).toList();
        long materialized = fresh.stream().filter(m -> m.log().isEmpty()).count();
        if (chk > 1) {
          assertThat(materialized).as("shards materialized by snapshot %d", chk)
              .isLessThanOrEqualTo(ForstKeyedStateBackend.MAX_MATERIALIZATIONS);
        }
        materializations += chk > 1 ? (int) materialized : 0;
        assertThat(fresh).allSatisfy(m -> assertThat(m.log().size()).isLessThan(48));
        if (chk % 14 == 0) {
          // a fresh process restores the latest snapshot, at two ranges, and carries on from it
          b.close();
          factory.close();
          factory = newProcess(true);
          try (KeyedStateBackend low = factory.restore("job", "op", new KeyGroupRange(0, 5), MAX_PARALLELISM,
              List.of(s))) {
            assertMatchesModel(low);
          }
          b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(s));
          assertMatchesModel(b);
        }
      }
    } finally {
      b.close();
    }
    assertThat(materializations).as("shards materialized after the first snapshot").isPositive();
  }

  @Test
  void aFailedUploadIsFollowedBySnapshotsThatRestoreExactly() throws Exception {
    Random r = new Random(3);
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      for (int i = 0; i < 500; i++) {
        mutate(b, r);
      }
      b.snapshot(1).get();
      for (int i = 0; i < 100; i++) {
        mutate(b, r);
      }
      store.failNth(FaultyObjectStore.Op.PUT, 1); // the change log of snapshot 2
      assertThatThrownBy(() -> b.snapshot(2).get()).isInstanceOf(ExecutionException.class);
      for (int i = 0; i < 100; i++) {
        mutate(b, r);
      }
      StateSnapshot third = b.snapshot(3).get();
      assertThat(manifests(third)).allSatisfy(m -> assertThat(m.log()).allSatisfy(
          seg -> assertThat(seg.object()).doesNotContain("chk-2/")));
      for (int i = 0; i < 100; i++) {
        mutate(b, r);
      }
      latest = b.snapshot(4).get();
    }
    factory.close();
    factory = newProcess(true);
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      assertMatchesModel(b);
    }
  }

  /**
   * Whichever upload of a snapshot fails — the change log, an SST, a private file, a manifest, before
   * or after the store took it — the following snapshots complete and restore exactly (none waits
   * forever for what the failed one left).
   */
  @Test
  void anyFailedPutOfASnapshotIsFollowedBySnapshotsThatComplete() throws Exception {
    for (boolean restored : new boolean[] {false, true}) {
      for (FaultyObjectStore.Timing timing : FaultyObjectStore.Timing.values()) {
        for (int nth = 1; nth <= 12; nth++) {
          failOnePutThenSnapshot("job-" + restored + "-" + timing + "-" + nth, restored, timing, nth);
        }
      }
    }
  }

  private void failOnePutThenSnapshot(String job, boolean restored, FaultyObjectStore.Timing timing, int nth)
      throws Exception {
    Random r = new Random(nth);
    values.clear();
    lists.clear();
    maps.clear();
    long chk = 0;
    KeyedStateBackend b = factory.create(job, "op", ALL, MAX_PARALLELISM);
    try {
      for (int round = 0; round < 6; round++) {
        for (int i = 0; i < 300; i++) {
          mutate(b, r);
        }
        latest = b.snapshot(++chk).get(30, TimeUnit.SECONDS);
      }
      if (restored) {
        // as after a restart: a fresh process restores, then its first snapshots fail and go on
        b.close();
        factory.close();
        factory = newProcess(true);
        b = factory.restore(job, "op", ALL, MAX_PARALLELISM, List.of(latest));
      }
      for (int i = 0; i < 300; i++) {
        mutate(b, r);
      }
      store.heal().timing(timing).failNth(FaultyObjectStore.Op.PUT, nth);
      try {
        b.snapshot(++chk).get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        // the injected failure hit this snapshot
      }
      store.heal().timing(FaultyObjectStore.Timing.BEFORE);
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 300; i++) {
          mutate(b, r);
        }
        latest = b.snapshot(++chk).get(30, TimeUnit.SECONDS);
      }
    } finally {
      b.close();
    }
    try (KeyedStateBackend again = factory.restore(job, "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      assertMatchesModel(again);
    }
  }

  /**
   * A snapshot that materializes a shard again while the previous snapshot's upload of that shard is
   * still running (the previous checkpoint was aborted, the next one started) shares its SST files:
   * it must not complete before they are durable, or a completed checkpoint would name objects the
   * store does not have.
   */
  @Test
  void aSnapshotDoesNotCompleteBeforeTheFilesItSharesWithAnUploadStillRunningAreDurable() throws Exception {
    java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean holdNext = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicReference<String> heldObject = new java.util.concurrent.atomic.AtomicReference<>();
    io.tributary.state.store.ObjectStore holding = new io.tributary.state.store.ForwardingObjectStore(objects) {
      @Override
      public void put(String name, Path file) throws IOException {
        if (name.endsWith(".sst") && holdNext.compareAndSet(true, false)) {
          heldObject.set(name);
          try {
            held.await();
          } catch (InterruptedException e) {
            throw new java.io.InterruptedIOException();
          }
        }
        super.put(name, file);
      }

      @Override
      public void close() {}
    };
    factory.close();
    factory = ForstStateBackendFactory.fromConfig(
        new ForstConfig(holding, tmp.resolve("local-held"), 1L << 30, 8L << 20, 16L << 20, 0).withChangeLog(false));
    Random r = new Random(11);
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      for (int i = 0; i < 500; i++) {
        mutate(b, r);
      }
      b.snapshot(1).get(30, TimeUnit.SECONDS);
      for (int i = 0; i < 300; i++) {
        mutate(b, r);
      }
      holdNext.set(true);
      java.util.concurrent.CompletableFuture<StateSnapshot> second = b.snapshot(2); // its checkpoint is aborted
      for (int i = 0; i < 300; i++) {
        mutate(b, r);
      }
      java.util.concurrent.CompletableFuture<StateSnapshot> third = b.snapshot(3);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> third.get(2, TimeUnit.SECONDS))
          .as("snapshot 3 while snapshot 2 still uploads %s", heldObject.get())
          .isInstanceOf(java.util.concurrent.TimeoutException.class);
      held.countDown();
      second.get(30, TimeUnit.SECONDS);
      latest = third.get(30, TimeUnit.SECONDS);
      assertThat(manifests(latest).stream().flatMap(m -> m.objects().stream()))
          .as("snapshot 3 shares the file snapshot 2 was uploading").contains(heldObject.get());
      for (String object : manifests(latest).stream().flatMap(m -> m.objects().stream()).toList()) {
        assertThat(objects.exists(object)).as("object %s of snapshot 3", object).isTrue();
      }
    }
    factory.close();
    factory = newProcess(true);
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      assertMatchesModel(b);
    }
  }

  @Test
  void aShardThatLogsMoreThanItsShareOfMemoryIsMaterializedByTheNextSnapshot() throws Exception {
    String big = "x".repeat(60 << 10);
    Key hot = Key.of(42L);
    int group = hot.keyGroup(MAX_PARALLELISM);
    long limit = Math.max(ForstKeyedStateBackend.MIN_LOG_LIMIT, ForstKeyedStateBackend.LOG_MEMORY / MAX_PARALLELISM);
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      b.setCurrentKey(hot);
      b.valueState("s", TestCodecs.STRING).update("small");
      b.snapshot(1).get();
      ListState<String> l = b.listState("l", TestCodecs.STRING);
      for (long written = 0; written <= limit; written += big.length()) {
        l.add(big);
      }
      latest = b.snapshot(2).get();
      ShardManifest m = ShardManifest.fromJson("m", objects.getBytes(latest.manifests().get(group)));
      assertThat(m.checkpointId()).isEqualTo(2);
      assertThat(m.log()).isEmpty();
      assertThat(m.files()).isNotEmpty();
      assertThat(latest.uploadedBytes()).isLessThan(limit); // compressed SSTs, no log
    }
    factory.close();
    factory = newProcess(true);
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      b.setCurrentKey(hot);
      assertThat(b.valueState("s", TestCodecs.STRING).value()).isEqualTo("small");
      assertThat(b.listState("l", TestCodecs.STRING).get()).hasSize((int) (limit / big.length()) + 1)
          .allSatisfy(x -> assertThat(x).isEqualTo(big));
    }
  }

  /** A snapshot taken right before the backend closes (a savepoint before a stop) completes. */
  @Test
  void aSnapshotTakenRightBeforeTheBackendClosesCompletesAndRestores() throws Exception {
    factory.close();
    factory = newProcess(false); // every snapshot materializes
    Random r = new Random(9);
    java.util.concurrent.CompletableFuture<StateSnapshot> last;
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      for (int i = 0; i < 500; i++) {
        mutate(b, r);
      }
      last = b.snapshot(1);
    }
    latest = last.get(30, TimeUnit.SECONDS);
    factory.close();
    factory = newProcess(true);
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      assertMatchesModel(b);
    }
  }

  /** A materialization whose upload failed leaves a shard whose later snapshots complete. */
  @Test
  void aFailedUploadOfAMaterializationIsFollowedBySnapshotsThatRestoreExactly() throws Exception {
    factory.close();
    factory = newProcess(false); // every snapshot materializes: its first put is a file of a shard
    Random r = new Random(7);
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      for (int i = 0; i < 300; i++) {
        mutate(b, r);
      }
      b.snapshot(1).get(30, TimeUnit.SECONDS);
      for (int i = 0; i < 300; i++) {
        mutate(b, r);
      }
      store.failNth(FaultyObjectStore.Op.PUT, 1);
      assertThatThrownBy(() -> b.snapshot(2).get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
      store.heal();
      for (long chk = 3; chk <= 4; chk++) {
        for (int i = 0; i < 300; i++) {
          mutate(b, r);
        }
        latest = b.snapshot(chk).get(30, TimeUnit.SECONDS);
      }
    }
    factory.close();
    factory = newProcess(true);
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      assertMatchesModel(b);
    }
  }

  @Test
  void withoutTheLogEverySnapshotMaterializesEveryChangedShard() throws Exception {
    factory.close();
    factory = newProcess(false);
    Random r = new Random(5);
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      for (long chk = 1; chk <= 3; chk++) {
        for (int i = 0; i < 300; i++) {
          mutate(b, r);
        }
        latest = b.snapshot(chk).get();
        assertThat(manifests(latest)).allSatisfy(m -> assertThat(m.log()).isEmpty());
      }
    }
    assertThat(objects.list("job/state/op/").stream().filter(n -> n.endsWith(".log"))).isEmpty();
    factory.close();
    factory = newProcess(true); // a log-enabled process restores it, and the other way round works too
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(latest))) {
      assertMatchesModel(b);
    }
  }

  /** One random write: a value put or clear, a list append or clear, a map put or remove. */
  private void mutate(KeyedStateBackend b, Random r) {
    long k = r.nextInt(KEYS);
    b.setCurrentKey(Key.of(k));
    ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
    ListState<String> l = b.listState("l", TestCodecs.STRING);
    MapState<String, Long> m = b.mapState("m", TestCodecs.STRING, TestCodecs.LONG);
    switch (r.nextInt(7)) {
      case 0, 1 -> {
        long x = r.nextLong();
        v.update(x);
        values.put(k, x);
      }
      case 2 -> {
        v.clear();
        values.remove(k);
      }
      case 3, 4 -> {
        String x = "e" + r.nextInt(1000);
        l.add(x);
        lists.computeIfAbsent(k, key -> new ArrayList<>()).add(x);
      }
      case 5 -> {
        String mk = "m" + r.nextInt(5);
        long x = r.nextInt(100);
        m.put(mk, x);
        maps.computeIfAbsent(k, key -> new TreeMap<>()).put(mk, x);
      }
      default -> {
        if (r.nextBoolean()) {
          l.clear();
          lists.remove(k);
        } else {
          String mk = "m" + r.nextInt(5);
          m.remove(mk);
          Map<String, Long> mm = maps.get(k);
          if (mm != null) {
            mm.remove(mk);
            if (mm.isEmpty()) {
              maps.remove(k);
            }
          }
        }
      }
    }
  }

  /** Every key of the backend's range holds what the model says. */
  private void assertMatchesModel(KeyedStateBackend b) {
    ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
    ListState<String> l = b.listState("l", TestCodecs.STRING);
    MapState<String, Long> m = b.mapState("m", TestCodecs.STRING, TestCodecs.LONG);
    int checked = 0;
    for (long k = 0; k < KEYS; k++) {
      Key key = Key.of(k);
      if (!b.keyGroupRange().contains(key.keyGroup(MAX_PARALLELISM))) {
        continue;
      }
      b.setCurrentKey(key);
      assertThat(v.value()).as("value of key %d", k).isEqualTo(values.get(k));
      assertThat(l.get()).as("list of key %d", k).isEqualTo(lists.getOrDefault(k, List.of()));
      Map<String, Long> actual = new TreeMap<>();
      m.entries().forEach(e -> actual.put(e.getKey(), e.getValue()));
      assertThat(actual).as("map of key %d", k).isEqualTo(maps.getOrDefault(k, Map.of()));
      checked++;
    }
    assertThat(checked).isPositive();
  }

  private List<ShardManifest> manifests(StateSnapshot s) throws Exception {
    List<ShardManifest> out = new ArrayList<>();
    for (String name : s.manifests().values()) {
      out.add(ShardManifest.fromJson(name, objects.getBytes(name)));
    }
    return out;
  }
}
