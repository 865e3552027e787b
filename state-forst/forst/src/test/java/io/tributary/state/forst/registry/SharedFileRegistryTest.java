package io.tributary.state.forst.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.state.forst.store.FaultyObjectStore;
import io.tributary.state.forst.store.FaultyObjectStore.Op;
import io.tributary.state.forst.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedFileRegistryTest {
  @TempDir Path tmp;
  FaultyObjectStore store;
  SharedFileRegistry registry;

  @BeforeEach
  void setUp() {
    store = new FaultyObjectStore(new LocalObjectStore(tmp));
    registry = new SharedFileRegistry(store);
  }

  @Test
  void sharedFilesLiveUntilTheLastSnapshotReferencingThemIsReleased() throws Exception {
    assertThat(registry.register("cp-1", List.of("s/a", "s/b"))).containsExactly("s/a", "s/b");
    upload("s/a", "s/b");
    assertThat(registry.register("cp-2", List.of("s/b", "s/c"))).containsExactly("s/c");
    upload("s/c");

    assertThat(registry.release("cp-1")).containsExactly("s/a");
    assertThat(store.exists("s/a")).isFalse();
    assertThat(store.exists("s/b")).isTrue();
    assertThat(registry.isReferenced("s/b")).isTrue();
    assertThat(registry.referenceCount("s/b")).isEqualTo(1);

    assertThat(registry.release("cp-2")).containsExactlyInAnyOrder("s/b", "s/c");
    assertThat(store.list("")).isEmpty();
    assertThat(registry.snapshots()).isEmpty();
  }

  @Test
  void registeringASnapshotTwiceAddsFilesAndCountsEachOnce() throws Exception {
    registry.register("cp-1", List.of("s/a"));
    assertThat(registry.register("cp-1", List.of("s/a", "s/b"))).containsExactly("s/b");
    assertThat(registry.referenceCount("s/a")).isEqualTo(1);
    upload("s/a", "s/b");
    registry.release("cp-1");
    assertThat(store.list("")).isEmpty();
  }

  @Test
  void failedDeletesAreRetriedOnTheNextRelease() throws Exception {
    registry.register("cp-1", List.of("s/a"));
    registry.register("cp-2", List.of("s/b"));
    upload("s/a", "s/b");
    store.failNth(Op.DELETE, 1);

    assertThat(registry.release("cp-1")).isEmpty();
    assertThat(registry.pendingDeletes()).containsExactly("s/a");
    assertThat(store.exists("s/a")).isTrue();

    assertThat(registry.release("cp-2")).containsExactlyInAnyOrder("s/a", "s/b");
    assertThat(registry.pendingDeletes()).isEmpty();
    assertThat(store.list("")).isEmpty();
  }

  @Test
  void aPendingDeleteThatIsReferencedAgainIsKeptAndReportedAsFresh() throws Exception {
    registry.register("cp-1", List.of("s/a"));
    upload("s/a");
    store.failNth(Op.DELETE, 1);
    registry.release("cp-1");

    assertThat(registry.register("cp-2", List.of("s/a"))).containsExactly("s/a");
    assertThat(registry.pendingDeletes()).isEmpty();
    assertThat(registry.sweep()).isEmpty();
    assertThat(store.exists("s/a")).isTrue();
  }

  @Test
  void rebuildRestoresCountsAndCollectOrphansRemovesLeftovers() throws Exception {
    upload("s/a", "s/b", "s/crashed-upload", "other/x");
    registry.rebuild(Map.of("cp-7", List.of("s/a", "s/b"), "sp-1", List.of("s/b")));

    assertThat(registry.referenceCount("s/b")).isEqualTo(2);
    assertThat(registry.collectOrphans("s/")).containsExactly("s/crashed-upload");
    assertThat(store.list("")).containsExactly("other/x", "s/a", "s/b");

    registry.release("cp-7");
    assertThat(store.list("s/")).containsExactly("s/b");
  }

  @Test
  void releasingAnUnknownSnapshotOnlySweeps() throws Exception {
    registry.register("cp-1", List.of("s/a"));
    upload("s/a");
    assertThat(registry.release("nope")).isEmpty();
    assertThat(store.exists("s/a")).isTrue();
  }

  private void upload(String... names) throws IOException {
    for (String name : names) {
      store.put(name, name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }
}
