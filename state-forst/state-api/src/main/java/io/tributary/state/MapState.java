package io.tributary.state;

import java.util.Map;

/**
 * A map per key, scoped to the backend's current key.
 *
 * <p>A state made with a {@link Combiner} also takes {@link #add}: values folded into the entry's by
 * the combiner, which a state whose values live below a cache can do without reading them
 * ({@link #addsWithoutReading}), deferring the read to the next {@link #get} or {@link #entries}.
 */
public interface MapState<K, V> {
  V get(K key);

  void put(K key, V value);

  void remove(K key);

  boolean contains(K key);

  /** The entries of the current key's map; the iterable must not be used after the state changes. */
  Iterable<Map.Entry<K, V>> entries();

  boolean isEmpty();

  void clear();

  /**
   * Adds {@code delta} (the state takes it over, so the caller must not touch it again) to the
   * value of {@code key}, or makes it the value when there is none. Returns true when {@code key}
   * certainly had a value before; false when it had none, or when the state cannot tell without
   * reading it.
   *
   * @throws UnsupportedOperationException if the state was made without a {@link Combiner}
   */
  boolean add(K key, V delta);

  /**
   * Whether {@link #add} saves reading the value here, so that a caller choosing between
   * {@link #get}-update-{@link #put} and {@link #add} should add. False when the state was made
   * without a combiner.
   */
  default boolean addsWithoutReading() {
    return false;
  }
}
