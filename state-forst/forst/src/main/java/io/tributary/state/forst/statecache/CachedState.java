package io.tributary.state.forst.statecache;

import io.tributary.state.Combiner;
import io.tributary.state.KeyTable;
import io.tributary.state.Murmur3;
import io.tributary.state.forst.rocks.KeyPresence;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What every cached state shares: its slots by key, reads that fall through to the layer below on a
 * miss, and writes that stay in the cache until the slot is flushed.
 *
 * <p>Subclasses say how to read one namespace below ({@link #load}), write one down
 * ({@link #store}) and list every namespace of the current key below ({@link #loadAll}). Calls
 * below are always made with the inner backend's current key set to the slot's key.
 *
 * @param <N> the namespace type
 */
abstract class CachedState<N> {
  /**
   * Every how many write-downs of a partial entry one reads the value below and puts it back
   * folded instead of adding to it: a window added to again and again while out of the cache would
   * otherwise keep every added accumulator below until it is read, so a value holds about this
   * many of them on average, at the cost of this fraction of the reads adding saves.
   */
  static final int FOLD_EVERY = 8;
  final CachingKeyedStateBackend backend;
  private final StateCache cache;
  private final KeyTable<Slot<N>> slots = new KeyTable<>();
  private Slot<N> current;
  private long currentVersion = -1;
  private final KeyPresence presence;
  /** Partial entries written down so far (see {@link #FOLD_EVERY}). */
  private long partialWriteDowns;
  /** Folds additions ({@link #addTo}); null for a state that takes none. */
  private final Combiner<Object> combiner;

  /** {@code inner} is the state below; when it can tell a key has nothing there, new keys' slots start complete. */
  CachedState(CachingKeyedStateBackend backend, Object inner) {
    this(backend, inner, null);
  }

  /** The same, for a state that takes additions folded by {@code combiner} (null: none). */
  @SuppressWarnings("unchecked")
  CachedState(CachingKeyedStateBackend backend, Object inner, Combiner<?> combiner) {
    this.backend = backend;
    this.cache = backend.cache();
    this.presence = inner instanceof KeyPresence p ? p : null;
    this.combiner = (Combiner<Object>) combiner;
  }

  /** Reads {@code ns} of the current key below; null when absent. */
  abstract Object load(N ns);

  /** Writes {@code value} of {@code ns} for the current key below; null deletes it. */
  abstract void store(N ns, Object value);

  /** Adds every namespace the current key has below and is not in {@code s} yet, then marks it complete. */
  abstract void loadAll(Slot<N> s);

  /**
   * Adds {@code delta} to the value of {@code ns} for the current key below, without reading it;
   * for states that take {@link #addTo additions}.
   */
  void addBelow(N ns, Object delta) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " takes no additions");
  }

  /** The value that {@code base} (null: none) becomes with {@code added} folded in, in order. */
  private Object fold(Object base, List<Object> added) {
    Object value = base;
    for (Object delta : added) {
      if (value == null) {
        value = delta;
      } else {
        combiner.combine(value, delta);
      }
    }
    return value;
  }

  /** Whether this state takes additions that read nothing below when {@code inner} does. */
  final boolean addsWithoutReading(boolean inner) {
    return combiner != null && inner;
  }

  /** The current key's slot, or null. */
  final Slot<N> slot() {
    long v = backend.keyVersion();
    if (v != currentVersion || (current != null && current.evicted)) {
      current = slots.get(backend.checkedCurrentKey());
      currentVersion = v;
    }
    return current;
  }

  /**
   * The current key's slot, created empty if needed: complete when the layer below says the key has
   * nothing there (then every later miss of the key is answered here, as long as the slot stays
   * cached), incomplete otherwise.
   */
  final Slot<N> slotOrCreate() {
    Slot<N> s = slot();
    return s != null ? s : newSlot(nothingBelow());
  }

  /**
   * The current key's slot for a read, or null when the key has none and the layer below certainly
   * holds nothing of it: then the read has its answer (nothing) and keeps no empty slot (a join
   * probing the other side with every record's key would fill the cache with them).
   */
  private Slot<N> slotToRead() {
    Slot<N> s = slot();
    if (s != null) {
      return s;
    }
    return nothingBelow() ? null : newSlot(false);
  }

  private Slot<N> newSlot(boolean complete) {
    Slot<N> s = new Slot<>(backend.currentKey(), this);
    s.complete = complete;
    s.below = !complete;
    slots.put(s.key, s);
    current = s;
    cache.added(1); // the slot itself, so that empty slots are bounded too
    return s;
  }

  /** The value of {@code ns} for the current key (null when absent), read below on a miss. */
  final Object read(N ns) {
    Slot<N> s = slotToRead();
    if (s == null) {
      cache.hit();
      return null;
    }
    Entry e = s.entry(ns);
    if (e == null) {
      if (s.complete) {
        cache.hit();
        used(s);
        return null;
      }
      cache.miss();
      e = new Entry(ns, loadBelow(ns), false, true);
      e.stored = e.value != null;
      s.add(e);
      cache.added(1);
    } else {
      valueOf(ns, e);
    }
    Object value = e.value;
    used(s);
    return value;
  }

  /**
   * Adds {@code delta} to the value of {@code ns} for the current key ({@link #combine}), reading
   * nothing below: when the value is not cached, the entry keeps the additions until the value is
   * read or written down. Returns true when {@code ns} certainly had a value before; false when it
   * had none or only the layer below knows.
   */
  final boolean addTo(N ns, Object delta) {
    if (combiner == null) {
      throw new UnsupportedOperationException("state made without a combiner takes no additions");
    }
    Objects.requireNonNull(delta, "state values must not be null");
    Slot<N> s = slotOrCreate();
    Entry e = s.entry(ns);
    boolean had;
    if (e == null) {
      had = false;
      e = s.complete ? new Entry(ns, delta, true, false) : partial(ns, delta);
      s.add(e);
      cache.added(1);
    } else if (e.partial) {
      had = true;
      @SuppressWarnings("unchecked")
      List<Object> added = (List<Object>) e.value;
      added.add(delta);
    } else if (e.value == Entry.UNLOADED) {
      had = true;
      e.value = partial(ns, delta).value;
      e.partial = true;
    } else if (e.value == null) {
      had = false;
      e.value = delta;
    } else {
      had = true;
      combiner.combine(e.value, delta);
    }
    e.dirty = true;
    if (!s.dirty) {
      cache.dirtied(s);
      backend.dirtied();
    }
    used(s);
    return had;
  }

  private static Entry partial(Object ns, Object delta) {
    List<Object> added = new ArrayList<>(2);
    added.add(delta);
    Entry e = new Entry(ns, added, true, true);
    e.partial = true;
    return e;
  }

  /**
   * Reads the value below (the inner backend at the entry's key already) and folds {@code e}'s
   * additions into it; the entry stays dirty.
   */
  private void resolve(N ns, Entry e) {
    @SuppressWarnings("unchecked")
    List<Object> added = (List<Object>) e.value;
    Object base = load(ns);
    e.value = fold(base, added);
    e.partial = false;
    e.stored = base != null;
  }

  /** Sets {@code ns} of the current key to {@code value}; null removes it. Nothing is written below. */
  final void write(N ns, Object value) {
    Slot<N> s = slotOrCreate();
    Entry e = s.entry(ns);
    if (e == null) {
      if (value == null && s.complete) {
        cache.touch(s);
        return;
      }
      // when the slot is incomplete the layer below may hold ns: a removal must reach it
      e = new Entry(ns, null, false, !s.complete);
      s.add(e);
      cache.added(1);
    }
    e.value = value;
    e.partial = false;
    e.dirty = value != null || e.stored;
    if (e.dirty && !s.dirty) {
      cache.dirtied(s);
      backend.dirtied();
    }
    if (value == null && !e.dirty && s.complete) {
      // absent here and below: a complete slot implies that, so keep no entry (session windows
      // replace one window by another on every record)
      s.remove(ns);
      cache.added(-1);
      if (s.isEmpty() && forgetIfNothingBelow(s)) {
        return;
      }
    }
    used(s);
  }

  /**
   * The current key's slot, made complete (listing the namespaces below once); null when the key
   * has none and the layer below certainly holds nothing of it (the key has no entries).
   */
  final Slot<N> completeSlot() {
    Slot<N> s = slotToRead();
    if (s != null && !s.complete) {
      int before = s.size();
      backend.innerAtCurrentKey();
      loadAll(s);
      s.complete = true;
      cache.added(s.size() - before);
    }
    return s;
  }

  /**
   * The value of the cached entry {@code e} of {@code ns} for the current key: read below when
   * {@link #loadAll} left it unloaded, folded with what is below when it is partial.
   */
  final Object valueOf(N ns, Entry e) {
    if (e.value == Entry.UNLOADED) {
      cache.miss();
      e.value = loadBelow(ns);
      e.stored = e.value != null;
    } else if (e.partial) {
      cache.miss();
      backend.innerAtCurrentKey();
      resolve(ns, e);
    } else {
      cache.hit();
    }
    return e.value;
  }

  /**
   * Marks {@code s} most recently used and lets the cache evict what exceeds its bound and write
   * down the dirty slots beyond its bound on those.
   */
  final void used(Slot<N> s) {
    if (s.evicted) {
      return; // dropped meanwhile (a map cleared to nothing): linking it again would count it nowhere
    }
    cache.touch(s);
    cache.evictIfOver();
    cache.writeBehindIfOver();
  }

  /**
   * Writes the dirty entries of {@code s} below; they stay cached, clean, except removals in a
   * complete slot, which need no entry once they reached the layer below.
   */
  final void flush(Slot<N> s) {
    int dropped = writeDown(s, s.complete);
    cache.added(-dropped);
    if (s.complete && s.isEmpty()) {
      forgetIfNothingBelow(s);
    }
  }

  /**
   * Drops {@code s}, a complete slot left without entries (so with nothing to write), unless the
   * layer below may hold something of its key: a cache full of the empty slots of keys gone
   * (auctions closed, sessions ended) would evict the keys still in use. A key that was written
   * down keeps its slot (until evicted): the layer below could then only say that it may have
   * something, and each new window of the key would be looked up there. Returns whether it was
   * dropped.
   */
  private boolean forgetIfNothingBelow(Slot<N> s) {
    if (s.below) {
      return false;
    }
    cache.remove(s);
    s.evicted = true;
    slots.remove(s.key);
    current = null;
    return true;
  }

  /** Writes the dirty entries of {@code s} below; with {@code dropRemovals}, drops those that were removals. */
  private int writeDown(Slot<N> s, boolean dropRemovals) {
    backend.innerAt(s.key);
    int dropped = s.removeIf(e -> writeDown(s, e) && dropRemovals);
    cache.cleaned(s);
    return dropped;
  }

  /** Writes {@code e} of {@code s} below if it is dirty; returns whether it was a removal. */
  @SuppressWarnings("unchecked")
  private boolean writeDown(Slot<N> s, Entry e) {
    N ns = (N) e.ns;
    if (e.partial && !foldThisOne()) {
      List<Object> added = (List<Object>) e.value;
      for (Object delta : added) {
        addBelow(ns, delta);
      }
      e.value = Entry.UNLOADED; // below now, with whatever was there
      e.partial = false;
      e.dirty = false;
      s.below = true;
      return false;
    }
    if (e.partial) { // the FOLD_EVERY-th: fold what is below too, so that it stays one value
      cache.miss();
      resolve(ns, e);
    }
    if (!e.dirty) {
      return false;
    }
    store(ns, e.value);
    e.dirty = false;
    e.stored = e.value != null;
    s.below |= e.stored;
    return e.value == null;
  }

  /**
   * Whether this write-down of a partial entry folds: one in {@link #FOLD_EVERY}, drawn by
   * murmur3's 64-bit finalizer of a counter (a plain modulo would never fold the entry of a key
   * that comes every other time).
   */
  private boolean foldThisOne() {
    return Long.remainderUnsigned(Murmur3.fmix64(++partialWriteDowns), FOLD_EVERY) == 0;
  }

  /** Writes {@code s} down and forgets it (the cache has already unlinked and uncounted it). */
  final void evict(Slot<N> s) {
    if (s.dirty) {
      writeDown(s, false);
    }
    s.evicted = true;
    slots.remove(s.key);
  }

  /** Forgets every slot (the backend is closing). */
  final void forgetAll() {
    slots.clear();
    current = null;
  }

  /** Whether the layer below certainly holds nothing of the current key (false when it cannot tell). */
  private boolean nothingBelow() {
    if (presence == null) {
      return false;
    }
    backend.innerAtCurrentKey();
    return !presence.mayHoldCurrentKey();
  }

  private Object loadBelow(N ns) {
    backend.innerAtCurrentKey();
    return load(ns);
  }
}
