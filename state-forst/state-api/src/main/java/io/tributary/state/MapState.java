package io.tributary.state;

import java.util.Map;

/** A map per key, scoped to the backend's current key. */
public interface MapState<K, V> {
  V get(K key);

  void put(K key, V value);

  void remove(K key);

  boolean contains(K key);

  /** The entries of the current key's map; the iterable must not be used after the state changes. */
  Iterable<Map.Entry<K, V>> entries();

  boolean isEmpty();

  void clear();
}
