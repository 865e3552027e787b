package io.tributary.state.heap;

import io.tributary.state.MapState;
import java.util.HashMap;
import java.util.Map;

/** A {@link HashMap} per key; a key whose map becomes empty is removed. */
final class HeapMapState<K, V> implements MapState<K, V>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<Map<K, V>> table;

  HeapMapState(HeapKeyedStateBackend backend) {
    this.backend = backend;
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
  public long entryCount() {
    return table.count(Map::size);
  }

  @Override
  public void clearAll() {
    table.clear();
  }
}
