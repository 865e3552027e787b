package io.tributary.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import java.io.DataInput;
import java.io.DataOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapKeyedStateBackendTest {
  private static final int MAX_PARALLELISM = 128;

  /** Heap state never serializes: a codec that fails proves it. */
  private static <T> StateCodec<T> noCodec() {
    return new StateCodec<>() {
      @Override
      public void write(T value, DataOutput out) {
        throw new AssertionError("heap backend must not serialize");
      }

      @Override
      public T read(DataInput in) {
        throw new AssertionError("heap backend must not deserialize");
      }
    };
  }

  private final HeapKeyedStateBackend backend =
      new HeapKeyedStateBackend(new KeyGroupRange(0, MAX_PARALLELISM), MAX_PARALLELISM);

  @Test
  void valueStateIsScopedToTheCurrentKey() {
    ValueState<Long> state = backend.valueState("v", noCodec());
    backend.setCurrentKey(Key.of(1L));
    state.update(10L);
    backend.setCurrentKey(Key.of(2L));
    assertThat(state.value()).isNull();
    state.update(20L);
    backend.setCurrentKey(Key.of(1L));
    assertThat(state.value()).isEqualTo(10L);
    state.clear();
    assertThat(state.value()).isNull();
    backend.setCurrentKey(Key.of(2L));
    assertThat(state.value()).isEqualTo(20L);
    assertThat(backend.approximateEntryCount()).isEqualTo(1);
  }

  @Test
  void mapStateSupportsEveryOperation() {
    MapState<String, Long> state = backend.mapState("m", noCodec(), noCodec());
    backend.setCurrentKey(Key.of("a"));
    assertThat(state.isEmpty()).isTrue();
    state.put("x", 1L);
    state.put("y", 2L);
    assertThat(state.get("x")).isEqualTo(1L);
    assertThat(state.contains("y")).isTrue();
    assertThat(state.entries()).extracting(Map.Entry::getKey).containsExactlyInAnyOrder("x", "y");
    state.remove("x");
    assertThat(state.contains("x")).isFalse();
    backend.setCurrentKey(Key.of("b"));
    assertThat(state.isEmpty()).isTrue();
    state.put("z", 3L);
    assertThat(backend.approximateEntryCount()).isEqualTo(2);
    state.clear();
    assertThat(state.isEmpty()).isTrue();
    backend.setCurrentKey(Key.of("a"));
    assertThat(state.get("y")).isEqualTo(2L);
  }

  @Test
  void listStateKeepsInsertionOrderAndReturnsACopy() {
    ListState<String> state = backend.listState("l", noCodec());
    backend.setCurrentKey(Key.of(7L));
    assertThat(state.get()).isEmpty();
    state.add("a");
    state.add("b");
    List<String> got = state.get();
    state.add("c");
    assertThat(got).containsExactly("a", "b");
    assertThat(state.get()).containsExactly("a", "b", "c");
    state.update(List.of("z"));
    assertThat(state.get()).containsExactly("z");
    state.clear();
    assertThat(state.get()).isEmpty();
    assertThat(backend.approximateEntryCount()).isZero();
  }

  @Test
  void windowStateListsTheCurrentKeysWindowsAsASnapshot() {
    WindowState<Long, long[]> state = backend.windowState("w", noCodec(), noCodec());
    backend.setCurrentKey(Key.of(1L, "x"));
    state.put(0L, new long[] {1});
    state.put(10L, new long[] {2});
    backend.setCurrentKey(Key.of(2L, "x"));
    state.put(0L, new long[] {3});
    backend.setCurrentKey(Key.of(1L, "x"));
    var windows = state.windows();
    assertThat(windows).containsExactlyInAnyOrder(0L, 10L);
    for (Long w : windows) {
      state.remove(w); // the snapshot stays safe to iterate while state changes
    }
    assertThat(state.windows()).isEmpty();
    assertThat(state.get(0L)).isNull();
    backend.setCurrentKey(Key.of(2L, "x"));
    assertThat(state.get(0L)).containsExactly(3);
    assertThat(backend.approximateEntryCount()).isEqualTo(1);
  }

  @Test
  void keepsMutableAccumulatorsAsObjects() {
    WindowState<Long, long[]> state = backend.windowState("w", noCodec(), noCodec());
    backend.setCurrentKey(Key.of(1L));
    long[] acc = {0};
    state.put(5L, acc);
    acc[0] = 42;
    assertThat(state.get(5L)).isSameAs(acc);
  }

  @Test
  void refusesKeysOutsideItsKeyGroups() {
    KeyGroupRange range = KeyGroups.rangeFor(MAX_PARALLELISM, 4, 1);
    HeapKeyedStateBackend part = new HeapKeyedStateBackend(range, MAX_PARALLELISM);
    Key outside = firstKey(k -> !range.contains(k.keyGroup(MAX_PARALLELISM)));
    assertThatThrownBy(() -> part.setCurrentKey(outside))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("outside this backend's range " + range);
    Key inside = firstKey(k -> range.contains(k.keyGroup(MAX_PARALLELISM)));
    part.setCurrentKey(inside);
    assertThat(part.currentKey()).isEqualTo(inside);
  }

  @Test
  void keyGroupsAreIsolatedAcrossManyKeys() {
    KeyGroupRange range = KeyGroups.rangeFor(MAX_PARALLELISM, 3, 2);
    HeapKeyedStateBackend part = new HeapKeyedStateBackend(range, MAX_PARALLELISM);
    ValueState<Long> state = part.valueState("v", noCodec());
    List<Key> keys = new ArrayList<>();
    for (long i = 0; keys.size() < 500; i++) {
      Key k = Key.of(i);
      if (range.contains(k.keyGroup(MAX_PARALLELISM))) {
        keys.add(k);
        part.setCurrentKey(k);
        state.update(i * 3);
      }
    }
    for (Key k : keys) {
      part.setCurrentKey(k);
      assertThat(state.value()).as("key %s", k).isEqualTo((Long) k.get(0) * 3);
    }
    assertThat(part.approximateEntryCount()).isEqualTo(500);
  }

  @Test
  void sameNameSameKindIsOneStateButAnotherKindIsRefused() {
    ValueState<Long> a = backend.valueState("s", noCodec());
    ValueState<Long> b = backend.valueState("s", noCodec());
    backend.setCurrentKey(Key.of(1L));
    a.update(5L);
    assertThat(b.value()).isEqualTo(5L);
    assertThatThrownBy(() -> backend.listState("s", noCodec()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'s'");
  }

  @Test
  void stateNeedsACurrentKey() {
    ValueState<Long> state = backend.valueState("v", noCodec());
    assertThatThrownBy(state::value).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closeDropsEverything() {
    ValueState<Long> state = backend.valueState("v", noCodec());
    backend.setCurrentKey(Key.of(1L));
    state.update(1L);
    backend.close();
    assertThat(backend.approximateEntryCount()).isZero();
    assertThatThrownBy(() -> backend.setCurrentKey(Key.of(1L)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void factoryIsNamedHeap() {
    HeapStateBackendFactory factory = new HeapStateBackendFactory();
    assertThat(factory.name()).isEqualTo("heap");
    var created = factory.create("job", "op", new KeyGroupRange(0, 64), 128);
    assertThat(created.keyGroupRange()).isEqualTo(new KeyGroupRange(0, 64));
    assertThat(created.maxParallelism()).isEqualTo(128);
  }

  @Test
  void rangeBeyondMaxParallelismIsRefused() {
    assertThatThrownBy(() -> new HeapKeyedStateBackend(new KeyGroupRange(0, 129), 128))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Key firstKey(java.util.function.Predicate<Key> p) {
    for (long i = 0; ; i++) {
      Key k = Key.of(i);
      if (p.test(k)) {
        return k;
      }
    }
  }
}
