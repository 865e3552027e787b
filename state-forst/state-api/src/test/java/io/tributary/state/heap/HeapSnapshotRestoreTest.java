package io.tributary.state.heap;

import io.tributary.state.store.ForwardingObjectStore;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.state.store.ObjectStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Heap snapshots restore every entry exactly, into any key-group range (rescale), lazily, whether
 * the operator asks for its states before or after their key groups are fetched.
 */
class HeapSnapshotRestoreTest {
  private static final StateCodec<Long> LONG = new StateCodec<>() {
    @Override
    public void write(Long value, DataOutput out) throws IOException {
      out.writeLong(value);
    }

    @Override
    public Long read(DataInput in) throws IOException {
      return in.readLong();
    }
  };
  private static final StateCodec<String> STRING = new StateCodec<>() {
    @Override
    public void write(String value, DataOutput out) throws IOException {
      out.writeUTF(value);
    }

    @Override
    public String read(DataInput in) throws IOException {
      return in.readUTF();
    }
  };
  /** A mutable accumulator, as window operators keep them. */
  private static final StateCodec<long[]> ACC = new StateCodec<>() {
    @Override
    public void write(long[] value, DataOutput out) throws IOException {
      out.writeLong(value[0]);
    }

    @Override
    public long[] read(DataInput in) throws IOException {
      return new long[] {in.readLong()};
    }
  };

  private final InMemoryObjectStore store = new InMemoryObjectStore();
  private final HeapStateBackendFactory factory = new HeapStateBackendFactory(store);

  @AfterEach
  void closeFactory() {
    factory.close();
  }

  @Test
  void randomOperationsSurviveSnapshotAndRestoreAtRandomRanges() {
    long seed = System.nanoTime();
    System.out.println("HeapSnapshotRestoreTest seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 40; round++) {
      String why = "seed " + seed + ", round " + round;
      int maxParallelism = List.of(1, 3, 16, 128).get(random.nextInt(4));
      List<Key> keys = keys(random);
      Model model = new Model();

      Cluster a = Cluster.create(factory, maxParallelism, 1 + random.nextInt(Math.min(4, maxParallelism)), random);
      apply(a, model, keys, random, 300);
      store.holdWrites();
      List<CompletableFuture<StateSnapshot>> pending = a.snapshot(1);
      Model atSnapshot = model.copy();
      apply(a, model, keys, random, 100); // the upload is in flight: none of this may reach it
      a.close();
      store.releaseWrites();
      List<StateSnapshot> first = join(pending);

      Cluster b = Cluster.restore(factory, maxParallelism, 1 + random.nextInt(Math.min(5, maxParallelism)),
          first, random);
      model = atSnapshot;
      apply(b, model, keys, random, random.nextInt(20)); // leaves some key groups unfetched
      List<StateSnapshot> second = join(b.snapshot(2));
      b.close();

      List<StateSnapshot> both = new ArrayList<>(first);
      both.addAll(second);
      Collections.shuffle(both, random);
      Cluster c = Cluster.restore(factory, maxParallelism, 1 + random.nextInt(Math.min(5, maxParallelism)),
          both, random);
      c.verify(model, keys, why);
      assertThat(c.entryCount()).as(why).isEqualTo(model.entryCount());
      c.close();
    }
  }

  @Test
  void closingTheFactoryWaitsForTheUploadsAlreadyStarted() throws Exception {
    java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    ObjectStore slow = new ForwardingObjectStore(new InMemoryObjectStore()) {
      @Override
      public void put(String name, byte[] bytes) throws IOException {
        entered.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
        super.put(name, bytes);
        events.add("uploaded");
      }
    };
    HeapStateBackendFactory closing = new HeapStateBackendFactory(slow);
    KeyedStateBackend b = closing.create("job", "op", new KeyGroupRange(0, 1), 1);
    b.setCurrentKey(Key.of(1L));
    b.valueState("v", LONG).update(1L);
    CompletableFuture<StateSnapshot> snapshot = b.snapshot(1);
    entered.await();
    Thread closer = new Thread(() -> {
      closing.close();
      events.add("closed");
    });
    closer.start();
    while (closer.getState() != Thread.State.TIMED_WAITING && closer.isAlive()) {
      Thread.onSpinWait(); // until close waits for the upload (or, wrongly, returned)
    }
    release.countDown();
    closer.join();
    snapshot.join();
    assertThat(events).as("nothing is written into the store once close returned").containsExactly("uploaded", "closed");
  }

  @Test
  void withoutAnObjectStoreNeitherSnapshotNorRestoreWorks() {
    HeapStateBackendFactory plain = new HeapStateBackendFactory();
    KeyedStateBackend b = plain.create("job", "op", new KeyGroupRange(0, 8), 8);
    assertThatThrownBy(() -> b.snapshot(1))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("object store");
    StateSnapshot s = new StateSnapshot("heap", 1, new KeyGroupRange(0, 8), Map.of(), 0, 0);
    assertThatThrownBy(() -> plain.restore("job", "op", new KeyGroupRange(0, 8), 8, List.of(s)))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("object store");
    plain.close();
  }

  @Test
  void untouchedKeyGroupsKeepTheirObjectAndAreNeverFetched() {
    KeyGroupRange all = new KeyGroupRange(0, 16);
    KeyedStateBackend b = factory.create("job", "op", all, 16);
    ValueState<Long> v = b.valueState("v", LONG);
    for (long i = 0; i < 50; i++) {
      b.setCurrentKey(Key.of(i));
      v.update(i);
    }
    StateSnapshot first = b.snapshot(1).join();
    assertThat(first.backend()).isEqualTo("heap");
    assertThat(first.manifests().get(3)).isEqualTo("job/state/op/heap/chk-1/kg-3");
    assertThat(first.uploadedBytes()).isEqualTo(first.stateBytes()).isPositive();

    KeyedStateBackend restored = factory.restore("job", "op", all, 16, List.of(first));
    ValueState<Long> rv = restored.valueState("v", LONG);
    Key touched = Key.of(7L);
    restored.setCurrentKey(touched);
    assertThat(rv.value()).isEqualTo(7L);
    assertThat(store.gets()).isEqualTo(1);
    StateSnapshot second = restored.snapshot(2).join();
    int g = touched.keyGroup(16);
    assertThat(second.manifests()).hasSameSizeAs(first.manifests());
    second.manifests().forEach((group, name) -> assertThat(name)
        .isEqualTo(group == g ? "job/state/op/heap/chk-2/kg-" + g : first.manifests().get(group)));
    assertThat(second.stateBytes()).isEqualTo(first.stateBytes());
    assertThat(second.uploadedBytes()).isLessThan(second.stateBytes());
  }

  @Test
  void aStateSnapshottedAsOneKindCannotBeRestoredAsAnother() {
    KeyedStateBackend b = factory.create("job", "op", new KeyGroupRange(0, 4), 4);
    MapState<String, Long> m = b.mapState("s", STRING, LONG);
    b.setCurrentKey(Key.of(1L));
    m.put("x", 1L);
    StateSnapshot s = b.snapshot(1).join();
    KeyedStateBackend restored = factory.restore("job", "op", new KeyGroupRange(0, 4), 4, List.of(s));
    restored.setCurrentKey(Key.of(1L));
    assertThatThrownBy(() -> restored.valueState("s", LONG))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'s' was snapshotted as MAP");
  }

  @Test
  void refusesSnapshotsOfAnotherBackendAndOverlappingSnapshotsOfOneCheckpoint() {
    KeyGroupRange all = new KeyGroupRange(0, 8);
    StateSnapshot forst = new StateSnapshot("forst", 1, all, Map.of(), 0, 0);
    assertThatThrownBy(() -> factory.restore("job", "op", all, 8, List.of(forst)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'forst'");
    StateSnapshot left = new StateSnapshot("heap", 1, new KeyGroupRange(0, 5), Map.of(), 0, 0);
    StateSnapshot right = new StateSnapshot("heap", 1, new KeyGroupRange(4, 8), Map.of(), 0, 0);
    assertThatThrownBy(() -> factory.restore("job", "op", all, 8, List.of(left, right)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key group 4");
  }

  @Test
  void aKeyGroupEmptiedSinceAnOlderSnapshotStaysEmpty() {
    KeyGroupRange all = new KeyGroupRange(0, 4);
    KeyedStateBackend b = factory.create("job", "op", all, 4);
    ValueState<Long> v = b.valueState("v", LONG);
    b.setCurrentKey(Key.of(1L));
    v.update(1L);
    StateSnapshot older = b.snapshot(1).join();
    v.clear();
    StateSnapshot newer = b.snapshot(2).join();
    assertThat(newer.manifests()).isEmpty();
    KeyedStateBackend restored = factory.restore("job", "op", all, 4, List.of(newer, older));
    restored.setCurrentKey(Key.of(1L));
    assertThat(restored.valueState("v", LONG).value()).isNull();
  }

  private static List<Key> keys(Random random) {
    List<Key> keys = new ArrayList<>();
    for (int i = 0, n = 1 + random.nextInt(80); i < n; i++) {
      keys.add(random.nextBoolean() ? Key.of((long) i) : Key.of("k" + i, (long) random.nextInt(3)));
    }
    return keys;
  }

  private static List<StateSnapshot> join(List<CompletableFuture<StateSnapshot>> futures) {
    return futures.stream().map(CompletableFuture::join).toList();
  }

  /** One random operation per step on a random key, applied to the backends and the model. */
  private static void apply(Cluster cluster, Model model, List<Key> keys, Random random, int steps) {
    for (int i = 0; i < steps; i++) {
      Key key = keys.get(random.nextInt(keys.size()));
      Handles h = cluster.select(key);
      long x = random.nextInt(5);
      switch (random.nextInt(11)) {
        case 0 -> {
          h.value().update(x);
          model.values.put(key, x);
        }
        case 1 -> {
          h.value().clear();
          model.values.remove(key);
        }
        case 2 -> {
          h.list().add("e" + x);
          model.lists.computeIfAbsent(key, k -> new ArrayList<>()).add("e" + x);
        }
        case 3 -> {
          List<String> list = random.nextBoolean() ? List.of() : List.of("u" + x, "v");
          h.list().update(list);
          putOrRemove(model.lists, key, new ArrayList<>(list));
        }
        case 4 -> {
          h.map().put("m" + x, x);
          model.maps.computeIfAbsent(key, k -> new TreeMap<>()).put("m" + x, x);
        }
        case 5 -> {
          h.map().remove("m" + x);
          Map<String, Long> m = model.maps.getOrDefault(key, new TreeMap<>());
          m.remove("m" + x);
          putOrRemove(model.maps, key, m);
        }
        case 6 -> {
          h.map().clear();
          model.maps.remove(key);
        }
        case 7, 8 -> {
          h.window().put(x, new long[] {x * 10});
          model.windows.computeIfAbsent(key, k -> new TreeMap<>()).put(x, x * 10);
        }
        case 9 -> {
          long[] acc = h.window().get(x); // mutated in place, not put back: the heap backend sees it
          if (acc != null) {
            acc[0]++;
            model.windows.get(key).merge(x, 1L, Long::sum);
          }
        }
        default -> {
          h.window().remove(x);
          Map<Long, Long> w = model.windows.getOrDefault(key, new TreeMap<>());
          w.remove(x);
          putOrRemove(model.windows, key, w);
        }
      }
    }
  }

  private static <V> void putOrRemove(Map<Key, V> map, Key key, V value) {
    boolean empty = value instanceof Map<?, ?> m ? m.isEmpty() : ((List<?>) value).isEmpty();
    if (empty) {
      map.remove(key);
    } else {
      map.put(key, value);
    }
  }

  /** What the state should hold; every container is a fresh copy owned by the model. */
  private static final class Model {
    final Map<Key, Long> values = new HashMap<>();
    final Map<Key, List<String>> lists = new HashMap<>();
    final Map<Key, Map<String, Long>> maps = new HashMap<>();
    final Map<Key, Map<Long, Long>> windows = new HashMap<>();

    Model copy() {
      Model c = new Model();
      c.values.putAll(values);
      lists.forEach((k, v) -> c.lists.put(k, new ArrayList<>(v)));
      maps.forEach((k, v) -> c.maps.put(k, new TreeMap<>(v)));
      windows.forEach((k, v) -> c.windows.put(k, new TreeMap<>(v)));
      return c;
    }

    long entryCount() {
      return values.size() + lists.size() + maps.values().stream().mapToLong(Map::size).sum()
          + windows.values().stream().mapToLong(Map::size).sum();
    }
  }

  /** The handles of one backend, asked for at restore or only when first used (after a fetch). */
  private static final class Handles {
    final KeyedStateBackend backend;
    private ValueState<Long> value;
    private ListState<String> list;
    private MapState<String, Long> map;
    private WindowState<Long, long[]> window;

    Handles(KeyedStateBackend backend, boolean eager) {
      this.backend = backend;
      if (eager) {
        value();
        list();
        map();
        window();
      }
    }

    ValueState<Long> value() {
      return value != null ? value : (value = backend.valueState("value", LONG));
    }

    ListState<String> list() {
      return list != null ? list : (list = backend.listState("list", STRING));
    }

    MapState<String, Long> map() {
      return map != null ? map : (map = backend.mapState("map", STRING, LONG));
    }

    WindowState<Long, long[]> window() {
      return window != null ? window : (window = backend.windowState("window", LONG, ACC));
    }
  }

  /** Subtasks 0..p-1 of one operator, each with its backend. */
  private record Cluster(int maxParallelism, List<Handles> subtasks) {
    static Cluster create(HeapStateBackendFactory factory, int maxParallelism, int parallelism, Random random) {
      List<Handles> subtasks = new ArrayList<>();
      for (int i = 0; i < parallelism; i++) {
        KeyGroupRange range = KeyGroups.rangeFor(maxParallelism, parallelism, i);
        subtasks.add(new Handles(factory.create("job", "op", range, maxParallelism), random.nextBoolean()));
      }
      return new Cluster(maxParallelism, subtasks);
    }

    static Cluster restore(HeapStateBackendFactory factory, int maxParallelism, int parallelism,
        List<StateSnapshot> snapshots, Random random) {
      List<Handles> subtasks = new ArrayList<>();
      for (int i = 0; i < parallelism; i++) {
        KeyGroupRange range = KeyGroups.rangeFor(maxParallelism, parallelism, i);
        subtasks.add(new Handles(factory.restore("job", "op", range, maxParallelism, snapshots),
            random.nextBoolean()));
      }
      return new Cluster(maxParallelism, subtasks);
    }

    /** The handles of the subtask that owns {@code key}, with {@code key} current. */
    Handles select(Key key) {
      int owner = KeyGroups.subtaskFor(key.keyGroup(maxParallelism), maxParallelism, subtasks.size());
      Handles h = subtasks.get(owner);
      h.backend.setCurrentKey(key);
      return h;
    }

    List<CompletableFuture<StateSnapshot>> snapshot(long checkpointId) {
      return subtasks.stream().map(h -> h.backend.snapshot(checkpointId)).toList();
    }

    void verify(Model model, List<Key> keys, String why) {
      for (Key key : keys) {
        Handles h = select(key);
        String as = why + ", key " + key;
        assertThat(h.value().value()).as(as).isEqualTo(model.values.get(key));
        assertThat(h.list().get()).as(as).isEqualTo(model.lists.getOrDefault(key, List.of()));
        Map<String, Long> map = new TreeMap<>();
        h.map().entries().forEach(e -> map.put(e.getKey(), e.getValue()));
        assertThat(map).as(as).isEqualTo(model.maps.getOrDefault(key, Map.of()));
        Map<Long, Long> windows = new TreeMap<>();
        for (Long w : h.window().windows()) {
          windows.put(w, h.window().get(w)[0]);
        }
        assertThat(windows).as(as).isEqualTo(model.windows.getOrDefault(key, Map.of()));
      }
    }

    long entryCount() {
      return subtasks.stream().mapToLong(h -> h.backend.approximateEntryCount()).sum();
    }

    void close() {
      subtasks.forEach(h -> h.backend.close());
    }
  }
}
