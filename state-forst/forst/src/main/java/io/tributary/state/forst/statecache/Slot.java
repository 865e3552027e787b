package io.tributary.state.forst.statecache;

import io.tributary.state.Key;
import java.util.HashMap;
import java.util.Map;

/**
 * The cached entries of one key in one state, and its place in the cache's LRU order: the unit of
 * eviction. {@code complete} means every namespace the key has is among {@code entries}, so a
 * namespace missing there is absent and listings need not ask the layer below.
 *
 * @param <N> the namespace type (map key, window, or a constant for value and list states)
 */
final class Slot<N> {
  final Key key;
  final CachedState<N> owner;
  final Map<N, Entry> entries = new HashMap<>(4);
  boolean complete;
  /**
   * Whether the layer below may hold something of the key: it could not rule the key out when the
   * slot was created, or the slot wrote a value down since. A complete slot without entries is
   * dropped only while this is false.
   */
  boolean below;
  /** Whether some entry is not written down yet; set and cleared only through the {@link StateCache}. */
  boolean dirty;
  boolean evicted;
  Slot<?> prev;
  Slot<?> next;
  /** Neighbours in the cache's list of dirty slots, least recently used first (null while clean). */
  Slot<?> dirtyPrev;
  Slot<?> dirtyNext;

  Slot(Key key, CachedState<N> owner) {
    this.key = key;
    this.owner = owner;
  }

  /** Writes the dirty entries down (see {@link CachedState#flush}). */
  void flush() {
    owner.flush(this);
  }

  /** Flushes and forgets this slot (see {@link CachedState#evict}). */
  void evict() {
    owner.evict(this);
  }

  /** The list sentinel of a {@link StateCache}. */
  static Slot<Object> sentinel() {
    Slot<Object> s = new Slot<>(null, null);
    s.prev = s;
    s.next = s;
    s.dirtyPrev = s;
    s.dirtyNext = s;
    return s;
  }
}
