package io.tributary.state.forst.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import io.tributary.state.forst.rocks.TestCodecs.Window;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForstKeyedStateBackendTest {
  @TempDir
  Path tmp;
  ForstTestEnv env;
  KeyedStateBackend backend;

  @BeforeEach
  void open() {
    env = new ForstTestEnv(tmp);
    backend = env.factory.create("job", "op", new KeyGroupRange(0, 8), 8);
  }

  @AfterEach
  void close() {
    backend.close();
    env.close();
  }

  @Test
  void valueStateIsScopedToTheCurrentKey() {
    ValueState<Long> v = backend.valueState("v", TestCodecs.LONG);
    backend.setCurrentKey(Key.of("a"));
    v.update(1L);
    backend.setCurrentKey(Key.of("b"));
    assertThat(v.value()).isNull();
    v.update(2L);
    backend.setCurrentKey(Key.of("a"));
    assertThat(v.value()).isEqualTo(1L);
    v.update(null);
    assertThat(v.value()).isNull();
    backend.setCurrentKey(Key.of("b"));
    assertThat(v.value()).isEqualTo(2L);
  }

  @Test
  void aKeyThatIsAPrefixOfAnotherKeepsItsOwnEntries() {
    WindowState<Window, Long> w = backend.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
    backend.setCurrentKey(Key.of("a"));
    w.put(new Window(0, 10), 1L);
    backend.setCurrentKey(Key.of("a", 1L));
    w.put(new Window(0, 10), 2L);
    backend.setCurrentKey(Key.of("a"));
    assertThat(w.windows()).containsExactly(new Window(0, 10));
    assertThat(w.get(new Window(0, 10))).isEqualTo(1L);
  }

  @Test
  void windowStateListsTheCurrentKeysWindows() {
    WindowState<Window, Long> w = backend.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
    ValueState<Long> other = backend.valueState("other", TestCodecs.LONG);
    backend.setCurrentKey(Key.of(7L));
    w.put(new Window(0, 10), 1L);
    w.put(new Window(10, 20), 2L);
    other.update(5L);
    backend.setCurrentKey(Key.of(8L));
    w.put(new Window(0, 10), 3L);
    backend.setCurrentKey(Key.of(7L));
    assertThat(w.windows()).containsExactlyInAnyOrder(new Window(0, 10), new Window(10, 20));
    w.remove(new Window(0, 10));
    assertThat(w.windows()).containsExactly(new Window(10, 20));
    assertThat(w.get(new Window(10, 20))).isEqualTo(2L);
    assertThat(w.get(new Window(0, 10))).isNull();
  }

  @Test
  void mapStateSupportsEveryOperation() {
    MapState<String, Long> m = backend.mapState("m", TestCodecs.STRING, TestCodecs.LONG);
    backend.setCurrentKey(Key.of("k"));
    assertThat(m.isEmpty()).isTrue();
    m.put("x", 1L);
    m.put("y", 2L);
    assertThat(m.contains("x")).isTrue();
    assertThat(m.get("y")).isEqualTo(2L);
    assertThat(m.entries()).containsExactlyInAnyOrder(Map.entry("x", 1L), Map.entry("y", 2L));
    m.remove("x");
    assertThat(m.contains("x")).isFalse();
    backend.setCurrentKey(Key.of("j"));
    m.put("z", 3L);
    backend.setCurrentKey(Key.of("k"));
    m.clear();
    assertThat(m.isEmpty()).isTrue();
    backend.setCurrentKey(Key.of("j"));
    assertThat(m.get("z")).isEqualTo(3L);
  }

  @Test
  void listStateAppendsByMerge() {
    ListState<String> l = backend.listState("l", TestCodecs.STRING);
    backend.setCurrentKey(Key.of("k"));
    assertThat(l.get()).isEmpty();
    l.add("a");
    l.add("");
    l.add("ccc");
    assertThat(l.get()).containsExactly("a", "", "ccc");
    l.update(List.of("z"));
    l.add("y");
    assertThat(l.get()).containsExactly("z", "y");
    l.clear();
    assertThat(l.get()).isEmpty();
  }

  @Test
  void largeValuesAreReadWhole() {
    ValueState<String> v = backend.valueState("big", TestCodecs.STRING);
    backend.setCurrentKey(Key.of("k"));
    String big = "x".repeat(10_000);
    v.update(big);
    assertThat(v.value()).isEqualTo(big);
  }

  @Test
  void refusesKeysOfOtherKeyGroupsAndKindChanges() {
    KeyedStateBackend half = env.factory.create("job", "op2", new KeyGroupRange(0, 4), 8);
    try {
      Key outside = findKeyInGroupAtLeast(4, 8);
      assertThatThrownBy(() -> half.setCurrentKey(outside)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("outside this backend's range");
      half.valueState("s", TestCodecs.LONG);
      assertThatThrownBy(() -> half.listState("s", TestCodecs.LONG)).isInstanceOf(IllegalStateException.class);
    } finally {
      half.close();
    }
  }

  @Test
  void readingKeyGroupsWithoutStateOpensNoShard() {
    ValueState<Long> v = backend.valueState("v", TestCodecs.LONG);
    WindowState<Window, Long> w = backend.windowState("w", TestCodecs.WINDOW, TestCodecs.LONG);
    for (long k = 0; k < 50; k++) {
      backend.setCurrentKey(Key.of(k));
      assertThat(v.value()).isNull();
      assertThat(w.windows()).isEmpty();
      w.remove(new Window(0, 10));
    }
    assertThat(env.factory.metrics().shardsOpened()).isZero();
    for (long k = 0; k < 50; k++) {
      backend.setCurrentKey(Key.of(k));
      v.update(k);
    }
    assertThat(backend.snapshot(1).join().manifests()).hasSize(8); // writes reach every key group
    ForstMetrics m = env.factory.metrics();
    assertThat(m.shardsOpened()).isEqualTo(8);
    System.out.printf("opening a new shard took %.1f ms on average%n", m.shardOpenNanos() / 1e6 / m.shardsOpened());
  }

  @Test
  void snapshotOfEmptyBackendHasNoManifests() throws Exception {
    assertThat(backend.snapshot(1).get().manifests()).isEmpty();
  }

  private static Key findKeyInGroupAtLeast(int group, int maxParallelism) {
    for (long i = 0; ; i++) {
      Key k = Key.of(i);
      if (k.keyGroup(maxParallelism) >= group) {
        return k;
      }
    }
  }
}
