package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retained forst snapshots share manifests and SSTs; releasing snapshots deletes exactly the
 * objects no retained snapshot references, also after a simulated restart that retains the
 * snapshots loaded from checkpoint metadata and restores from one of them.
 */
class ForstRetentionTest {
  private static final int MAX_PARALLELISM = 8;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM);
  private static final Set<Integer> ALL_GROUPS =
      IntStream.range(0, MAX_PARALLELISM).boxed().collect(Collectors.toSet());
  private static final int KEYS = 2_000;
  private static final String STATE_PREFIX = "job/state/";

  @TempDir
  Path tmp;
  ForstTestEnv env;
  /** Key to its value in the latest snapshot. */
  private final Map<Long, Long> expected = new TreeMap<>();
  /** Every object each snapshot references (manifests included), read while they exist. */
  private final Map<StateSnapshot, Set<String>> objects = new HashMap<>();

  @BeforeEach
  void open() {
    env = new ForstTestEnv(tmp);
  }

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void releasingOlderSnapshotsKeepsEverythingTheNewestReferences() throws Exception {
    List<StateSnapshot> s = threeSnapshotsSharingUnchangedKeyGroups();
    StateSnapshot s1 = s.get(0);
    StateSnapshot s2 = s.get(1);
    StateSnapshot s3 = s.get(2);

    assertThat(env.factory.release("job", "op", s1))
        .containsExactlyInAnyOrderElementsOf(minus(objects(s1), objects(s2), objects(s3)));
    assertThat(env.factory.release("job", "op", s2))
        .containsExactlyInAnyOrderElementsOf(minus(objects(s2), objects(s3)));
    assertThat(env.store.list(STATE_PREFIX)).containsExactlyInAnyOrderElementsOf(objects(s3));
    assertRestoresFully(s3);
  }

  @Test
  void afterARestartTheLoadedSnapshotsAreRetainedUntilReleased() throws Exception {
    List<StateSnapshot> s = threeSnapshotsSharingUnchangedKeyGroups();
    env.factory.release("job", "op", s.get(0)); // the coordinator keeps the last two checkpoints
    StateSnapshot s2 = s.get(1);
    StateSnapshot s3 = s.get(2);

    env.restartWipingLocalDisk();
    env.factory.retain("job", "op", s2);
    env.factory.retain("job", "op", s3);
    StateSnapshot s4 = restoreWriteAndSnapshot(s3, 4);
    assertThat(s4.manifests().get(2)).as("unchanged since snapshot 1").isEqualTo(s3.manifests().get(2));

    env.factory.release("job", "op", s2);
    env.factory.release("job", "op", s3);
    assertThat(env.store.list(STATE_PREFIX)).containsExactlyInAnyOrderElementsOf(objects(s4));
    assertRestoresFully(s4);

    assertThat(env.factory.release("job", "op", s4)).containsExactlyInAnyOrderElementsOf(objects(s4));
    assertThat(env.store.list(STATE_PREFIX)).isEmpty();
    assertThat(env.factory.registry().snapshots()).isEmpty();
  }

  @Test
  void releasingANewSnapshotKeepsWhatARetainedLoadedOneShares() throws Exception {
    StateSnapshot s3 = threeSnapshotsSharingUnchangedKeyGroups().get(2);
    Map<Long, Long> atS3 = new TreeMap<>(expected);
    env.restartWipingLocalDisk();
    env.factory.retain("job", "op", s3);
    StateSnapshot s4 = restoreWriteAndSnapshot(s3, 4);
    assertThat(objects(s4)).containsAnyElementsOf(objects(s3));

    assertThat(env.factory.release("job", "op", s4))
        .containsExactlyInAnyOrderElementsOf(minus(objects(s4), objects(s3)));
    assertThat(env.store.list(STATE_PREFIX)).containsAll(objects(s3));
    expected.clear();
    expected.putAll(atS3);
    assertRestoresFully(s3);
    assertThat(env.factory.release("job", "op", s3)).containsExactlyInAnyOrderElementsOf(objects(s3));
  }

  @Test
  void retainingTwiceCountsOnceAndReleasingWhatIsNotRetainedDeletesNothing() throws Exception {
    StateSnapshot s3 = threeSnapshotsSharingUnchangedKeyGroups().get(2);
    env.restartWipingLocalDisk();
    List<String> before = env.store.list(STATE_PREFIX);
    assertThat(env.factory.release("job", "op", s3)).as("never retained by this factory").isEmpty();
    assertThat(env.factory.release("other-job", "op", s3)).isEmpty();
    assertThat(env.store.list(STATE_PREFIX)).isEqualTo(before);

    env.factory.retain("job", "op", s3);
    env.factory.retain("job", "op", s3);
    StateSnapshot otherRange = new StateSnapshot("forst", 3, new KeyGroupRange(0, 4), s3.manifests(), 0, 0);
    assertThat(env.factory.release("job", "op", otherRange)).as("another subtask's snapshot").isEmpty();
    assertThat(env.factory.release("job", "op", s3)).containsExactlyInAnyOrderElementsOf(objects(s3));
    assertThat(env.factory.release("job", "op", s3)).as("released already").isEmpty();
  }

  @Test
  void retainRegistersNothingWhenAManifestCannotBeRead() throws Exception {
    StateSnapshot s1;
    try (KeyedStateBackend b = env.factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, ALL_GROUPS, 1);
      s1 = b.snapshot(1).get();
    }
    env.restartWipingLocalDisk();
    Map<Integer, String> manifests = new HashMap<>(s1.manifests());
    manifests.put(7, "job/state/op/chk-1/kg-missing.json");
    StateSnapshot broken = new StateSnapshot("forst", 1, ALL, manifests, 0, 0);
    assertThatThrownBy(() -> env.factory.retain("job", "op", broken))
        .isInstanceOf(ForstStateException.class)
        .hasMessageContaining("kg-missing.json");
    assertThat(env.factory.registry().referencedFiles()).isEmpty();

    StateSnapshot heap = new StateSnapshot("heap", 1, ALL, Map.of(), 0, 0);
    assertThatThrownBy(() -> env.factory.retain("job", "op", heap))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'heap'");
  }

  @Test
  void aCopyReferencesOnlyItsDirectoryAndTheSnapshotsOfABackendRestoredFromItNeverReferenceTheCopy()
      throws Exception {
    List<StateSnapshot> s = threeSnapshotsSharingUnchangedKeyGroups();
    StateSnapshot s3 = s.get(2);
    StateSnapshot copy = env.factory.copyTo("job", "op", s3, "backup/sp-3");
    assertThat(copy.manifests()).hasSameSizeAs(s3.manifests()).allSatisfy((g, m) -> assertThat(m)
        .isEqualTo("backup/sp-3/state/op/kg-" + g + ".json"));
    int logged = 0;
    for (String manifest : copy.manifests().values()) {
      ShardManifest m = ShardManifest.fromJson(manifest, env.store.getBytes(manifest));
      assertThat(m.objects()).as("stored relative to the manifest").allMatch(n -> n.startsWith(SnapshotCopies.RELATIVE));
      logged += m.log().size();
    }
    assertThat(logged).as("change-log segments copied along").isPositive();
    s.forEach(snapshot -> env.factory.release("job", "op", snapshot));
    assertThat(env.store.list(STATE_PREFIX)).as("the copy is not counted: releases leave it alone").isEmpty();

    // moved as a whole, then restored from where it lies now
    for (String name : env.store.list("backup/")) {
      env.store.copy(name, "moved/" + name.substring("backup/".length()));
      env.store.delete(name);
    }
    Map<Integer, String> moved = new HashMap<>();
    copy.manifests().forEach((g, m) -> moved.put(g, "moved/" + m.substring("backup/".length())));
    StateSnapshot relocated = new StateSnapshot("forst", 3, ALL, moved, copy.stateBytes(), 0);
    env.restartWipingLocalDisk();
    StateSnapshot s4 = restoreWriteAndSnapshot(relocated, 4);
    assertThat(objects(s4)).as("the restored backend's snapshot").allMatch(n -> n.startsWith(STATE_PREFIX));
    for (String name : env.store.list("moved/")) {
      env.store.delete(name);
    }
    assertRestoresFully(s4);
    assertThat(env.factory.release("job", "op", s4)).isNotEmpty();
  }

  /**
   * Snapshot 1 of every key group; snapshot 2 after changing key groups 0 and 1; snapshot 3 after
   * changing key group 0 again. Key groups 2 to 7 do not change, so all three snapshots reference
   * snapshot 1's manifests (and SSTs) for them.
   */
  private List<StateSnapshot> threeSnapshotsSharingUnchangedKeyGroups() throws Exception {
    try (KeyedStateBackend b = env.factory.create("job", "op", ALL, MAX_PARALLELISM)) {
      write(b, ALL_GROUPS, 1);
      StateSnapshot s1 = record(b.snapshot(1).get());
      write(b, Set.of(0, 1), 2);
      StateSnapshot s2 = record(b.snapshot(2).get());
      write(b, Set.of(0), 3);
      StateSnapshot s3 = record(b.snapshot(3).get());
      assertThat(s1.manifests()).hasSize(MAX_PARALLELISM);
      assertThat(s3.manifests().get(2)).isEqualTo(s1.manifests().get(2)).isEqualTo(s2.manifests().get(2));
      return List.of(s1, s2, s3);
    }
  }

  /** Restores {@code from} in {@code env.factory}, changes key group 5 and snapshots. */
  private StateSnapshot restoreWriteAndSnapshot(StateSnapshot from, long checkpointId) throws Exception {
    try (KeyedStateBackend b = env.factory.restore("job", "op", ALL, MAX_PARALLELISM, List.of(from))) {
      write(b, Set.of(5), checkpointId);
      return record(b.snapshot(checkpointId).get());
    }
  }

  private StateSnapshot record(StateSnapshot s) throws IOException {
    Set<String> names = new HashSet<>();
    for (String manifest : s.manifests().values()) {
      names.add(manifest);
      names.addAll(ShardManifest.fromJson(manifest, env.store.getBytes(manifest)).objects());
    }
    objects.put(s, names);
    return s;
  }

  private Set<String> objects(StateSnapshot s) {
    return objects.get(s);
  }

  /** Sets every key of {@code groups} to {@code key * version} and records it as expected. */
  private void write(KeyedStateBackend b, Set<Integer> groups, long version) {
    ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
    for (long i = 0; i < KEYS; i++) {
      Key key = Key.of(i);
      if (groups.contains(key.keyGroup(MAX_PARALLELISM))) {
        b.setCurrentKey(key);
        v.update(i * version);
        expected.put(i, i * version);
      }
    }
  }

  /** Restores {@code snapshot} in a factory of its own (another local disk) and reads every key. */
  private void assertRestoresFully(StateSnapshot snapshot) {
    assertThat(expected).hasSize(KEYS);
    try (ForstStateBackendFactory fresh = env.newFactory(tmp.resolve("verify-" + snapshot.checkpointId()));
        KeyedStateBackend b = fresh.restore("job", "op", ALL, MAX_PARALLELISM, List.of(snapshot))) {
      ValueState<Long> v = b.valueState("v", TestCodecs.LONG);
      expected.forEach((key, value) -> {
        b.setCurrentKey(Key.of(key));
        assertThat(v.value()).as("value of key %d", key).isEqualTo(value);
      });
    }
  }

  @SafeVarargs
  private static Set<String> minus(Set<String> from, Set<String>... others) {
    Set<String> rest = new HashSet<>(from);
    for (Set<String> o : others) {
      rest.removeAll(o);
    }
    return rest;
  }
}
