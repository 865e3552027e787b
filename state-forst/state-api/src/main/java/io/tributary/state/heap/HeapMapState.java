package io.tributary.state.heap;

import io.tributary.state.Combiner;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** A {@link HashMap} per key; a key whose map becomes empty is removed. */
final class HeapMapState<K, V> implements MapState<K, V>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<Map<K, V>> table;
  private final StateCodec<K> keyCodec;
  private final StateCodec<V> valueCodec;
  private final Combiner<V> combiner;

  HeapMapState(HeapKeyedStateBackend backend, StateCodec<K> keyCodec, StateCodec<V> valueCodec,
      Combiner<V> combiner) {
    this.backend = backend;
    this.keyCodec = keyCodec;
    this.valueCodec = valueCodec;
    this.combiner = combiner;
    this.table = new KeyGroupedTable<>(backend.keyGroupRange().size());
  }

  private Map<K, V> current() {
    Map<K, V> m = table.get(backend.currentGroupIndex(), backend.currentKey());
    return m == null ? Map.of() : m;
  }

  @Override
  public V get(K key) {
    return current().get(key);
  }

  @Override
  public void put(K key, V value) {
    int g = backend.currentGroupIndex();
    Map<K, V> m = table.get(g, backend.currentKey());
    if (m == null) {
      m = new HashMap<>();
      table.put(g, backend.currentKey(), m);
    }
    m.put(key, value);
  }

  @Override
  public void remove(K key) {
    int g = backend.currentGroupIndex();
    Map<K, V> m = table.get(g, backend.currentKey());
    if (m != null && m.remove(key) != null && m.isEmpty()) {
      table.remove(g, backend.currentKey());
    }
  }

  /** {@inheritDoc} Here a read of the value on the heap, which it updates in place. */
  @Override
  public boolean add(K key, V delta) {
    if (combiner == null) {
      throw new UnsupportedOperationException("map state made without a combiner");
    }
    V value = get(key);
    if (value == null) {
      put(key, delta);
      return false;
    }
    combiner.combine(value, delta);
    return true;
  }

  @Override
  public boolean contains(K key) {
    return current().containsKey(key);
  }

  @Override
  public Iterable<Map.Entry<K, V>> entries() {
    return current().entrySet();
  }

  @Override
  public boolean isEmpty() {
    return current().isEmpty();
  }

  @Override
  public void clear() {
    table.remove(backend.currentGroupIndex(), backend.currentKey());
  }

  @Override
  public HeapStateKind kind() {
    return HeapStateKind.MAP;
  }

  @Override
  public long entryCount() {
    return table.count(Map::size);
  }

  @Override
  public long entryCount(int groupIndex) {
    return table.count(groupIndex, Map::size);
  }

  @Override
  public void write(int groupIndex, DataOutput out) throws IOException {
    table.write(groupIndex, out, (m, o) -> {
      o.writeInt(m.size());
      for (Map.Entry<K, V> e : m.entrySet()) {
        keyCodec.write(e.getKey(), o);
        valueCodec.write(e.getValue(), o);
      }
    });
  }

  @Override
  public void read(int groupIndex, int keyGroup, int maxParallelism, DataInput in) throws IOException {
    table.read(groupIndex, keyGroup, maxParallelism, in, i -> {
      int n = i.readInt();
      Map<K, V> m = new HashMap<>();
      for (int k = 0; k < n; k++) {
        m.put(keyCodec.read(i), valueCodec.read(i));
      }
      return m;
    });
  }

  @Override
  public void clearAll() {
    table.clear();
  }
}
