package io.tributary.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.state.store.ObjectStore;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retained heap snapshots share objects (a key group untouched since a restore keeps its object);
 * releasing snapshots deletes exactly the objects no retained snapshot references, also after a
 * simulated restart that retains the snapshots loaded from checkpoint metadata.
 */
class HeapRetentionTest {
  private static final int MAX_PARALLELISM = 8;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM);
  private static final int KEYS = 200;
  private static final String OPERATOR_PREFIX = "job/state/op/";
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

  private final FailingStore store = new FailingStore(new InMemoryObjectStore());
  private final HeapStateBackendFactory factory = new HeapStateBackendFactory(store);
  /** Key to the value the latest snapshot holds. */
  private final Map<Long, Long> expected = new TreeMap<>();

  @AfterEach
  void closeFactory() {
    factory.close();
  }

  @Test
  void releasingOlderSnapshotsKeepsEverythingTheNewestReferences() throws Exception {
    List<StateSnapshot> s = threeSnapshotsSharingUntouchedKeyGroups(factory);
    StateSnapshot s1 = s.get(0);
    StateSnapshot s2 = s.get(1);
    StateSnapshot s3 = s.get(2);
    assertThat(s3.manifests().get(2)).as("key group 2 is unchanged since snapshot 1")
        .isEqualTo(s1.manifests().get(2)).isEqualTo(s2.manifests().get(2));

    assertThat(factory.release("job", "op", s1)).containsExactlyInAnyOrderElementsOf(
        minus(objects(s1), objects(s2), objects(s3)));
    assertThat(factory.release("job", "op", s2)).containsExactlyInAnyOrderElementsOf(
        minus(objects(s2), objects(s3)));

    assertThat(store.list(OPERATOR_PREFIX)).containsExactlyInAnyOrderElementsOf(objects(s3));
    assertThat(store.list(OPERATOR_PREFIX)).doesNotContainAnyElementsOf(minus(objects(s1), objects(s3)));
    assertRestoresFully(s3);
  }

  @Test
  void afterARestartTheLoadedSnapshotsAreRetainedUntilReleased() throws Exception {
    List<StateSnapshot> s = threeSnapshotsSharingUntouchedKeyGroups(factory);
    factory.release("job", "op", s.get(0)); // the coordinator keeps the last two checkpoints
    StateSnapshot s2 = s.get(1);
    StateSnapshot s3 = s.get(2);

    try (HeapStateBackendFactory restarted = new HeapStateBackendFactory(store)) {
      restarted.retain("job", "op", s2);
      restarted.retain("job", "op", s3);
      StateSnapshot s4;
      try (KeyedStateBackend b = restarted.restore("job", "op", ALL, MAX_PARALLELISM, List.of(s3))) {
        write(b, Set.of(5), 4);
        s4 = b.snapshot(4).join();
      }
      assertThat(s4.manifests().get(2)).as("still the object of snapshot 1").isEqualTo(s3.manifests().get(2));

      restarted.release("job", "op", s2);
      restarted.release("job", "op", s3);
      assertThat(store.list(OPERATOR_PREFIX)).containsExactlyInAnyOrderElementsOf(objects(s4));
      assertRestoresFully(s4);

      assertThat(restarted.release("job", "op", s4)).containsExactlyInAnyOrderElementsOf(objects(s4));
      assertThat(store.list(OPERATOR_PREFIX)).isEmpty();
    }
  }

  @Test
  void releasingANewSnapshotKeepsWhatARetainedLoadedOneShares() throws Exception {
    StateSnapshot s3 = threeSnapshotsSharingUntouchedKeyGroups(factory).get(2);
    try (HeapStateBackendFactory restarted = new HeapStateBackendFactory(store)) {
      restarted.retain("job", "op", s3);
      StateSnapshot s4;
      try (KeyedStateBackend b = restarted.restore("job", "op", ALL, MAX_PARALLELISM, List.of(s3))) {
        write(b, Set.of(5), 4);
        s4 = b.snapshot(4).join();
      }
      assertThat(restarted.release("job", "op", s4)).containsExactlyInAnyOrderElementsOf(minus(objects(s4), objects(s3)));
      assertThat(store.list(OPERATOR_PREFIX)).containsAll(objects(s3));
      assertThat(restarted.release("job", "op", s3)).containsExactlyInAnyOrderElementsOf(objects(s3));
    }
  }

  @Test
  void retainingTwiceCountsOnceAndReleasingWhatIsNotRetainedDeletesNothing() throws Exception {
    StateSnapshot s3 = threeSnapshotsSharingUntouchedKeyGroups(factory).get(2);
    try (HeapStateBackendFactory restarted = new HeapStateBackendFactory(store)) {
      List<String> before = store.list(OPERATOR_PREFIX);
      StateSnapshot otherRange = new StateSnapshot("heap", 3, new KeyGroupRange(0, 4), s3.manifests(), 0, 0);
      assertThat(restarted.release("job", "op", s3)).as("never retained by this factory").isEmpty();
      assertThat(restarted.release("other-job", "op", s3)).isEmpty();
      assertThat(store.list(OPERATOR_PREFIX)).isEqualTo(before);

      restarted.retain("job", "op", s3);
      restarted.retain("job", "op", s3);
      assertThat(restarted.release("job", "op", otherRange)).as("another subtask's snapshot").isEmpty();
      assertThat(restarted.release("job", "op", s3)).containsExactlyInAnyOrderElementsOf(objects(s3));
      assertThat(restarted.release("job", "op", s3)).as("released already").isEmpty();
    }
  }

  @Test
  void aSnapshotOfTheSameProcessIsRetainedOnceItCompletes() throws Exception {
    StateSnapshot s1;
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, allGroups(), 1);
      s1 = b.snapshot(1).join();
    }
    factory.retain("job", "op", s1);
    assertThat(factory.release("job", "op", s1)).containsExactlyInAnyOrderElementsOf(objects(s1));
    assertThat(store.list(OPERATOR_PREFIX)).isEmpty();
  }

  @Test
  void failedDeletionsAreRetriedByALaterRelease() throws Exception {
    StateSnapshot s1;
    StateSnapshot s2;
    try (KeyedStateBackend b = factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, allGroups(), 1);
      s1 = b.snapshot(1).join();
      s2 = b.snapshot(2).join();
    }
    String stuck = s1.manifests().get(3);
    store.failDeletesOf = stuck;
    assertThat(factory.release("job", "op", s1)).hasSize(objects(s1).size() - 1).doesNotContain(stuck);
    assertThat(factory.pendingDeletes()).containsExactly(stuck);
    assertThat(store.exists(stuck)).isTrue();

    store.failDeletesOf = null;
    StateSnapshot unknown = new StateSnapshot("heap", 99, ALL, Map.of(), 0, 0);
    assertThat(factory.release("job", "op", unknown)).containsExactly(stuck);
    assertThat(factory.pendingDeletes()).isEmpty();
    assertThat(store.list(OPERATOR_PREFIX)).containsExactlyInAnyOrderElementsOf(objects(s2));
  }

  @Test
  void aFailedSnapshotDeletesWhatItWroteAndNothingItShares() throws Exception {
    StateSnapshot s1 = threeSnapshotsSharingUntouchedKeyGroups(factory).get(0);
    try (KeyedStateBackend b = factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(s1))) {
      write(b, Set.of(0, 1), 9);
      store.failPutsOf = "job/state/op/heap/chk-9/kg-1";
      assertThatThrownBy(() -> b.snapshot(9).join()).isInstanceOf(CompletionException.class);
    }
    assertThat(store.list("job/state/op/heap/chk-9/")).isEmpty();
    assertThat(store.list(OPERATOR_PREFIX)).containsAll(objects(s1));
  }

  @Test
  void withoutAnObjectStoreRetainAndReleaseDoNothing() {
    HeapStateBackendFactory plain = new HeapStateBackendFactory();
    StateSnapshot s = new StateSnapshot("heap", 1, ALL, Map.of(0, "job/state/op/heap/chk-1/kg-0"), 8, 8);
    plain.retain("job", "op", s);
    assertThat(plain.release("job", "op", s)).isEmpty();
    StateSnapshot forst = new StateSnapshot("forst", 1, ALL, Map.of(), 0, 0);
    assertThatThrownBy(() -> plain.retain("job", "op", forst))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'forst'");
    plain.close();
  }

  @Test
  void aCopyIsNeverReleasedAndABackendRestoredFromItSnapshotsOnlyItsOwnObjects() throws Exception {
    List<StateSnapshot> s = threeSnapshotsSharingUntouchedKeyGroups(factory);
    StateSnapshot s3 = s.get(2);
    StateSnapshot copy = factory.copyTo("job", "op", s3, "job/savepoints/sp-3");
    assertThat(copy.manifests()).hasSameSizeAs(s3.manifests())
        .allSatisfy((g, o) -> assertThat(o).isEqualTo("job/savepoints/sp-3/state/op/heap/kg-" + g));
    s.forEach(snapshot -> factory.release("job", "op", snapshot));
    assertThat(store.list(OPERATOR_PREFIX)).isEmpty();
    assertThat(store.list("job/savepoints/sp-3/")).containsExactlyInAnyOrderElementsOf(objects(copy));

    StateSnapshot s4;
    try (HeapStateBackendFactory restarted = new HeapStateBackendFactory(store);
        KeyedStateBackend b = restarted.restore("job", "op", ALL, MAX_PARALLELISM, List.of(copy))) {
      write(b, Set.of(5), 4);
      s4 = b.snapshot(4).join();
    }
    assertThat(objects(s4)).as("untouched key groups too").allMatch(o -> o.startsWith(OPERATOR_PREFIX));
    for (String name : store.list("job/savepoints/")) {
      store.delete(name);
    }
    assertRestoresFully(s4);
  }

  /**
   * Snapshot 1 of every key group; snapshot 2 from a backend restored from it that changed key
   * groups 0 and 1; snapshot 3 after changing key group 0 again. Key groups 2 to 7 stay untouched,
   * so all three snapshots reference snapshot 1's objects for them.
   */
  private List<StateSnapshot> threeSnapshotsSharingUntouchedKeyGroups(HeapStateBackendFactory f) {
    StateSnapshot s1;
    try (KeyedStateBackend b = f.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, allGroups(), 1);
      s1 = b.snapshot(1).join();
    }
    assertThat(s1.manifests()).hasSize(MAX_PARALLELISM);
    try (KeyedStateBackend b = f.restore("job", "op", ALL, MAX_PARALLELISM, List.of(s1))) {
      write(b, Set.of(0, 1), 2);
      StateSnapshot s2 = b.snapshot(2).join();
      write(b, Set.of(0), 3);
      StateSnapshot s3 = b.snapshot(3).join();
      return List.of(s1, s2, s3);
    }
  }

  /** Sets every key of {@code groups} to {@code key * version} and records it as expected. */
  private void write(KeyedStateBackend b, Set<Integer> groups, long version) {
    ValueState<Long> v = b.valueState("v", LONG);
    for (long i = 0; i < KEYS; i++) {
      Key key = Key.of(i);
      if (groups.contains(key.keyGroup(MAX_PARALLELISM))) {
        b.setCurrentKey(key);
        v.update(i * version);
        expected.put(i, i * version);
      }
    }
  }

  /** Restores {@code snapshot} into a fresh factory and reads every key. */
  private void assertRestoresFully(StateSnapshot snapshot) {
    assertThat(expected).hasSize(KEYS);
    try (HeapStateBackendFactory fresh = new HeapStateBackendFactory(store);
        KeyedStateBackend b = fresh.restore("job", "op", ALL, MAX_PARALLELISM, List.of(snapshot))) {
      ValueState<Long> v = b.valueState("v", LONG);
      expected.forEach((key, value) -> {
        b.setCurrentKey(Key.of(key));
        assertThat(v.value()).as("value of key %d", key).isEqualTo(value);
      });
    }
  }

  private static Set<Integer> allGroups() {
    Set<Integer> all = new HashSet<>();
    for (int g = 0; g < MAX_PARALLELISM; g++) {
      all.add(g);
    }
    return all;
  }

  private static Set<String> objects(StateSnapshot s) {
    return new HashSet<>(s.manifests().values());
  }

  @SafeVarargs
  private static Set<String> minus(Set<String> from, Set<String>... others) {
    Set<String> rest = new HashSet<>(from);
    for (Set<String> o : others) {
      rest.removeAll(o);
    }
    return rest;
  }

  /** A store in memory whose puts or deletes of one chosen object fail. */
  private static final class FailingStore extends io.tributary.state.store.ForwardingObjectStore {
    volatile String failDeletesOf;
    volatile String failPutsOf;

    FailingStore(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public void put(String name, Path file) throws IOException {
      checkPut(name);
      delegate.put(name, file);
    }

    @Override
    public void put(String name, byte[] bytes) throws IOException {
      checkPut(name);
      delegate.put(name, bytes);
    }

    @Override
    public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
      checkPut(name);
      return delegate.putIfAbsent(name, bytes);
    }

    private void checkPut(String name) throws IOException {
      if (name.equals(failPutsOf)) {
        throw new IOException("injected put failure of " + name);
      }
    }

    @Override
    public void delete(String name) throws IOException {
      if (name.equals(failDeletesOf)) {
        throw new IOException("injected delete failure of " + name);
      }
      delegate.delete(name);
    }

  }
}
