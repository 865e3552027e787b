package io.tributary.state.forst.statecache;

import java.util.concurrent.atomic.LongAdder;

/**
 * The bounded, least-recently-used order of every {@link Slot} of one backend, across its states.
 * After an access adds entries, slots are evicted from the least recently used end until the cache
 * holds at most {@code maxEntries} entries (each slot counts as one more entry, so keys without
 * entries are bounded too); evicting a slot first writes its dirty entries down.
 * The slot just used is the most recent, so it goes only when it alone exceeds the bound.
 */
final class StateCache {
  /** Reads counted before they are added to the shared totals. */
  private static final long PUBLISH_EVERY = 4096;
  private final long maxEntries;
  private final Slot<Object> lru = Slot.sentinel();
  private long entries;
  private long evictions;
  /** Reads answered here and not, since last {@link #publishReads published}. */
  private long hits;
  private long misses;
  private final LongAdder hitsTotal;
  private final LongAdder missesTotal;

  /** A cache of at most {@code maxEntries} entries that adds its reads to the two totals. */
  StateCache(long maxEntries, LongAdder hitsTotal, LongAdder missesTotal) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("state cache bound must be >= 1, got " + maxEntries);
    }
    this.maxEntries = maxEntries;
    this.hitsTotal = hitsTotal;
    this.missesTotal = missesTotal;
  }

  /** Counts a read answered here. */
  void hit() {
    if (++hits == PUBLISH_EVERY) {
      publishReads();
    }
  }

  /** Counts a read that went below. */
  void miss() {
    if (++misses == PUBLISH_EVERY) {
      publishReads();
    }
  }

  /** Adds the reads counted since the last call to the totals (shared by the process's backends). */
  void publishReads() {
    hitsTotal.add(hits);
    missesTotal.add(misses);
    hits = 0;
    misses = 0;
  }

  /** Makes {@code s} the most recently used slot, inserting it if it is new. */
  void touch(Slot<?> s) {
    if (lru.prev == s) {
      return;
    }
    if (s.next != null) {
      s.prev.next = s.next;
      s.next.prev = s.prev;
    }
    s.prev = lru.prev;
    s.next = lru;
    lru.prev.next = s;
    lru.prev = s;
  }

  /** Counts {@code n} entries added to some slot. */
  void added(int n) {
    entries += n;
  }

  /** Evicts least recently used slots while the cache holds more than its bound. */
  void evictIfOver() {
    while (entries > maxEntries && lru.next != lru) {
      Slot<?> s = lru.next;
      unlink(s);
      entries -= s.entries.size() + 1;
      evictions++;
      s.evict();
    }
  }

  /** The keys of slots with changes not yet written to the inner backend. */
  java.util.List<io.tributary.state.Key> dirtyKeys() {
    java.util.List<io.tributary.state.Key> keys = new java.util.ArrayList<>();
    for (Slot<?> s = lru.next; s != lru; s = s.next) {
      if (s.dirty) {
        keys.add(s.key);
      }
    }
    return keys;
  }

  /** Writes the dirty entries of every slot down; they stay cached, clean (see {@link CachedState#flush}). */
  void flushAll() {
    for (Slot<?> s = lru.next; s != lru; ) {
      Slot<?> next = s.next; // flushing may drop s
      if (s.dirty) {
        s.flush();
      }
      s = next;
    }
  }

  /** Drops {@code s} from the cache: its entries (none) and itself no longer count. */
  void remove(Slot<?> s) {
    if (s.next != null) {
      unlink(s);
    }
    entries -= s.entries.size() + 1;
  }

  /** Forgets every slot without writing anything. */
  void clear() {
    for (Slot<?> s = lru.next; s != lru; ) {
      Slot<?> next = s.next;
      s.evicted = true;
      s.prev = null;
      s.next = null;
      s = next;
    }
    lru.prev = lru;
    lru.next = lru;
    entries = 0;
  }

  long entries() {
    return entries;
  }

  /** The entries of the linked slots counted one by one, each slot as one more; for tests of the bookkeeping. */
  long recount() {
    long n = 0;
    for (Slot<?> s = lru.next; s != lru; s = s.next) {
      n += s.entries.size() + 1;
    }
    return n;
  }

  long evictions() {
    return evictions;
  }

  private void unlink(Slot<?> s) {
    s.prev.next = s.next;
    s.next.prev = s.prev;
    s.prev = null;
    s.next = null;
  }
}
