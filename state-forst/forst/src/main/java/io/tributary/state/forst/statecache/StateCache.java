package io.tributary.state.forst.statecache;

import java.util.concurrent.atomic.LongAdder;

/**
 * The bounded, least-recently-used order of every {@link Slot} of one backend, across its states.
 * After an access adds entries, slots are evicted from the least recently used end until the cache
 * holds at most {@code maxEntries} entries (each slot counts as one more entry, so keys without
 * entries are bounded too); evicting a slot first writes its dirty entries down.
 * The slot just used is the most recent, so it goes only when it alone exceeds the bound.
 *
 * <p>Dirty slots are also kept in a list of their own, in the same order. When more than
 * {@code maxDirtySlots} are dirty after an access, the least recently used of them are written down
 * (and stay cached, clean) until that many are left: a snapshot, which writes every dirty slot down
 * on the task thread, then has at most that many to write, however many keys changed since the last
 * one. Keys used again and again stay dirty (they are the most recent) and are written once per
 * snapshot as before, as long as there are fewer of them than the bound.
 */
final class StateCache {
  /** Reads counted before they are added to the shared totals. */
  private static final long PUBLISH_EVERY = 4096;
  /**
   * The default bound on dirty slots: writing a slot down takes 2–4 µs, so a snapshot's write-down
   * stays within some 30–60 ms.
   */
  static final long MAX_DIRTY_SLOTS = 16_384;
  private final long maxEntries;
  private final long maxDirtySlots;
  private final Slot<Object> lru = Slot.sentinel();
  private final Slot<Object> dirtyList = Slot.sentinel();
  private long entries;
  private long dirtySlots;
  private long writtenBehind;
  private long evictions;
  /** Reads answered here and not, since last {@link #publishReads published}. */
  private long hits;
  private long misses;
  private final LongAdder hitsTotal;
  private final LongAdder missesTotal;

  /**
   * A cache of at most {@code maxEntries} entries, of which at most {@code maxDirtySlots} slots stay
   * dirty between accesses, that adds its reads to the two totals.
   */
  StateCache(long maxEntries, long maxDirtySlots, LongAdder hitsTotal, LongAdder missesTotal) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("state cache bound must be >= 1, got " + maxEntries);
    }
    if (maxDirtySlots < 1) {
      throw new IllegalArgumentException("dirty slot bound must be >= 1, got " + maxDirtySlots);
    }
    this.maxEntries = maxEntries;
    this.maxDirtySlots = maxDirtySlots;
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
    if (s.dirty && dirtyList.dirtyPrev != s) {
      unlinkDirty(s);
      appendDirty(s);
    }
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
      entries -= s.size() + 1;
      evictions++;
      s.evict();
    }
  }

  /** Marks {@code s} dirty: it is the most recently used dirty slot. */
  void dirtied(Slot<?> s) {
    if (!s.dirty) {
      s.dirty = true;
      appendDirty(s);
    }
  }

  /** Marks {@code s} clean: it was written down. */
  void cleaned(Slot<?> s) {
    if (s.dirty) {
      s.dirty = false;
      unlinkDirty(s);
    }
  }

  /**
   * Writes the least recently used dirty slots down while more than the bound are dirty; they stay
   * cached, clean. The slot just used is the most recent, so it is never among them.
   */
  void writeBehindIfOver() {
    while (dirtySlots > maxDirtySlots) {
      writtenBehind++;
      dirtyList.dirtyNext.flush();
    }
  }

  /** The keys of slots with changes not yet written to the inner backend. */
  java.util.List<io.tributary.state.Key> dirtyKeys() {
    java.util.List<io.tributary.state.Key> keys = new java.util.ArrayList<>();
    for (Slot<?> s = dirtyList.dirtyNext; s != dirtyList; s = s.dirtyNext) {
      keys.add(s.key);
    }
    return keys;
  }

  /** Writes the dirty entries of every slot down; they stay cached, clean (see {@link CachedState#flush}). */
  void flushAll() {
    while (dirtyList.dirtyNext != dirtyList) {
      dirtyList.dirtyNext.flush(); // which unlinks it
    }
  }

  /** Drops {@code s} from the cache: its entries (none) and itself no longer count. */
  void remove(Slot<?> s) {
    if (s.next != null) {
      unlink(s);
    }
    cleaned(s); // a slot left without entries may still be marked dirty: nothing of it is left to write
    entries -= s.size() + 1;
  }

  /** Forgets every slot without writing anything. */
  void clear() {
    for (Slot<?> s = lru.next; s != lru; ) { // every dirty slot is among them
      Slot<?> next = s.next;
      s.evicted = true;
      s.prev = null;
      s.next = null;
      s.dirty = false;
      s.dirtyPrev = null;
      s.dirtyNext = null;
      s = next;
    }
    lru.prev = lru;
    lru.next = lru;
    entries = 0;
    dirtyList.dirtyPrev = dirtyList;
    dirtyList.dirtyNext = dirtyList;
    dirtySlots = 0;
  }

  long entries() {
    return entries;
  }

  /** The entries of the linked slots counted one by one, each slot as one more; for tests of the bookkeeping. */
  long recount() {
    long n = 0;
    for (Slot<?> s = lru.next; s != lru; s = s.next) {
      n += s.size() + 1;
    }
    return n;
  }

  long evictions() {
    return evictions;
  }

  /** Slots dirty now. */
  long dirtySlots() {
    return dirtySlots;
  }

  /** Slots written down so far because too many were dirty. */
  long writtenBehind() {
    return writtenBehind;
  }

  private void appendDirty(Slot<?> s) {
    s.dirtyPrev = dirtyList.dirtyPrev;
    s.dirtyNext = dirtyList;
    dirtyList.dirtyPrev.dirtyNext = s;
    dirtyList.dirtyPrev = s;
    dirtySlots++;
  }

  private void unlinkDirty(Slot<?> s) {
    s.dirtyPrev.dirtyNext = s.dirtyNext;
    s.dirtyNext.dirtyPrev = s.dirtyPrev;
    s.dirtyPrev = null;
    s.dirtyNext = null;
    dirtySlots--;
  }

  private void unlink(Slot<?> s) {
    s.prev.next = s.next;
    s.next.prev = s.prev;
    s.prev = null;
    s.next = null;
  }
}
