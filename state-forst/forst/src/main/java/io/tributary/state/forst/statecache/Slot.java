package io.tributary.state.forst.statecache;

import io.tributary.state.Key;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The cached entries of one key in one state, and its place in the cache's LRU order: the unit of
 * eviction. {@code complete} means every namespace the key has is among its entries, so a
 * namespace missing there is absent and listings need not ask the layer below.
 *
 * <p>Most slots hold one entry (a value or list state has one namespace; a tumbling window's key
 * one window at a time), so the first is kept in a field and a map is made only for a second: a
 * cache of many keys is then far fewer objects for the collector to copy while they are young.
 *
 * @param <N> the namespace type (map key, window, or a constant for value and list states)
 */
final class Slot<N> {
  final Key key;
  final CachedState<N> owner;
  /** The only entry while {@link #many} is null (null: none). */
  private Entry one;
  /** The entries by namespace once there were two at a time; null before. */
  private Map<Object, Entry> many;
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

  /** The entry of {@code ns}, or null. */
  Entry entry(Object ns) {
    if (many != null) {
      return many.get(ns);
    }
    Entry e = one;
    return e != null && (e.ns == ns || (e.ns != null && e.ns.equals(ns))) ? e : null;
  }

  /** Adds {@code e}, whose namespace has no entry here yet. */
  void add(Entry e) {
    if (many != null) {
      many.put(e.ns, e);
    } else if (one == null) {
      one = e;
    } else {
      many = new HashMap<>(4);
      many.put(one.ns, one);
      many.put(e.ns, e);
      one = null;
    }
  }

  /** Removes the entry of {@code ns}, if there is one. */
  void remove(Object ns) {
    if (many != null) {
      many.remove(ns);
      shrink();
    } else if (entry(ns) != null) {
      one = null;
    }
  }

  /** Back to the field when the map holds one entry or none (a session replaces its window by another). */
  private void shrink() {
    if (many.size() <= 1) {
      one = many.isEmpty() ? null : many.values().iterator().next();
      many = null;
    }
  }

  int size() {
    return many != null ? many.size() : one != null ? 1 : 0;
  }

  boolean isEmpty() {
    return size() == 0;
  }

  /** Calls {@code action} with every entry; it must not add or remove entries. */
  void forEachEntry(Consumer<Entry> action) {
    if (many != null) {
      many.values().forEach(action);
    } else if (one != null) {
      action.accept(one);
    }
  }

  /** Calls {@code test} with every entry and removes those it returns true for; returns how many. */
  int removeIf(Predicate<Entry> test) {
    if (many != null) {
      int before = many.size();
      many.values().removeIf(test);
      int removed = before - many.size();
      shrink();
      return removed;
    }
    if (one != null && test.test(one)) {
      one = null;
      return 1;
    }
    return 0;
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
