package io.tributary.state.forst.statecache;

import io.tributary.state.Combiner;
import io.tributary.state.MapState;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A cached {@link MapState}: one entry per map key. Listing ({@link #entries}, {@link #isEmpty},
 * {@link #clear}) reads the key's whole map below once, after which the key's slot is complete and
 * is answered from the cache. Map keys must have {@code equals} consistent with their encoding.
 *
 * <p>With a combiner, {@link #add} reads nothing below: an entry not cached keeps the added values
 * until it is read (then the value below is read and they are folded in) or written down (then they
 * are added below, which reads nothing there either).
 */
final class CachedMapState<K, V> extends CachedState<K> implements MapState<K, V> {
  private final MapState<K, V> inner;

  CachedMapState(CachingKeyedStateBackend backend, MapState<K, V> inner, Combiner<V> combiner) {
    super(backend, inner, combiner);
    this.inner = inner;
  }

  @Override
  @SuppressWarnings("unchecked")
  public V get(K key) {
    return (V) read(key);
  }

  /**
   * {@inheritDoc}
   *
   * @throws NullPointerException if {@code value} is null
   */
  @Override
  public void put(K key, V value) {
    write(key, Objects.requireNonNull(value, "map state values must not be null"));
  }

  @Override
  public void remove(K key) {
    write(key, null);
  }

  @Override
  public boolean add(K key, V delta) {
    return addTo(key, delta);
  }

  @Override
  public boolean addsWithoutReading() {
    return addsWithoutReading(inner.addsWithoutReading());
  }

  @Override
  public boolean contains(K key) {
    return read(key) != null;
  }

  /** A materialized copy of the current key's entries, in no particular order. */
  @Override
  @SuppressWarnings("unchecked")
  public Iterable<Map.Entry<K, V>> entries() {
    Slot<K> s = completeSlot();
    if (s == null) {
      return List.of();
    }
    List<Map.Entry<K, V>> out = new ArrayList<>();
    s.forEachEntry(e -> {
      if (e.live()) {
        K k = (K) e.ns;
        out.add(new AbstractMap.SimpleImmutableEntry<>(k, (V) valueOf(k, e)));
      }
    });
    used(s);
    return out;
  }

  @Override
  public boolean isEmpty() {
    Slot<K> s = completeSlot();
    if (s == null) {
      return true;
    }
    boolean[] live = {false};
    s.forEachEntry(e -> live[0] |= e.live());
    boolean empty = !live[0];
    used(s);
    return empty;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void clear() {
    Slot<K> s = completeSlot();
    if (s == null) {
      return;
    }
    List<K> keys = new ArrayList<>(s.size());
    s.forEachEntry(e -> keys.add((K) e.ns));
    for (K k : keys) {
      write(k, null);
    }
    used(s);
  }

  @Override
  Object load(K ns) {
    return inner.get(ns);
  }

  @Override
  @SuppressWarnings("unchecked")
  void store(K ns, Object value) {
    if (value == null) {
      inner.remove(ns);
    } else {
      inner.put(ns, (V) value);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  void addBelow(K ns, Object delta) {
    inner.add(ns, (V) delta);
  }

  @Override
  void loadAll(Slot<K> s) {
    for (Map.Entry<K, V> e : inner.entries()) {
      if (s.entry(e.getKey()) == null) {
        s.add(new Entry(e.getKey(), e.getValue(), false, true));
      }
    }
  }
}
