package io.tributary.state.forst.rocks;

import io.tributary.state.Key;
import io.tributary.state.StateCodec;
import io.tributary.state.TimerQueue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.rocksdb.RocksIterator;

/**
 * Timers in the shards of a {@link ForstKeyedStateBackend}, next to the state, with only the
 * earliest few of each key group on the heap (as Flink's RocksDB timer service).
 *
 * <p>A timer is one RocksDB entry with an empty value in the shard of its key's group:
 * {@code 0xffffffff | queue id (4 bytes) | time (8 bytes, big-endian, sign bit flipped) | varint
 * length of the key | key bytes | namespace (a presence byte, then the codec's form)}. The queue id is the murmur3 hash of the queue's
 * name; no state has the state id {@code 0xffffffff} ({@link ForstKeyedStateBackend} refuses such a
 * name). So a shard's timers of a queue are one key range ordered by time, and they snapshot,
 * restore (lazily, per key group) and rescale exactly as the state does: nothing of them is kept
 * anywhere else.
 *
 * <p>On the heap, per key group used: a cache of its earliest timers (at most {@link #cacheSize}
 * of them, as their entries' bytes, in RocksDB's order), each marked whether it is in RocksDB yet
 * (and, when registered through this queue, with its key and namespace objects, handed out again
 * when it fires), and whether the cache holds all of the group's timers; and a set of the key groups ordered by
 * their earliest time. The invariants: every timer of a group greater than the last of its cache
 * is in RocksDB only; a cached timer is in RocksDB unless it is marked as not written yet; a
 * group's cache is empty only when the group has no timer. A registration earlier than the last
 * cached timer (or any, while the cache holds them all) goes into the cache only, unwritten,
 * pushing the last cached timer out into RocksDB when the cache is full; a later one goes to
 * RocksDB only. A deletion or a firing removes the timer from the cache, and from RocksDB unless
 * it was not written yet; a cache that empties is refilled from RocksDB at once, seeking past the
 * entry taken last (not over the tombstones of those before it). So a job whose timers fit in the
 * caches never touches RocksDB for them but to write them down before a snapshot ({@link #flush},
 * which {@link ForstKeyedStateBackend#snapshot} calls) or when more than {@link #MAX_UNWRITTEN} are
 * unwritten, and one with more timers than that keeps only the caches on the heap. A key group
 * restored and not used since is read (its shard opened, its first timers listed) when it is first
 * used, or when the earliest time is first asked for: then every restored key group is, several
 * shards being opened at once in the background.
 *
 * <p>Used by the task thread only, like the backend.
 */
final class ForstTimerQueue<N> implements TimerQueue<N> {
  /** The state id of every timer entry. */
  static final int KEY_MARK = 0xffffffff;
  /** Timers cached on the heap per backend at most (some 100 bytes each), within the bounds per key group below. */
  static final int CACHE_BUDGET = 1 << 17;
  /** Timers cached per key group at least. */
  static final int MIN_CACHE = 16;
  /** Timers cached per key group at most. */
  static final int MAX_CACHE = 1024;
  /**
   * Cached timers not in RocksDB yet, over all key groups, beyond which groups' caches are written
   * down, one group at a time in turn: so {@link #flush} before a snapshot, on the task thread, has
   * at most this many to write (some 20–40 ms), while a job whose timers fire before they are written
   * down never writes them.
   */
  static final int MAX_UNWRITTEN = 16_384;
  private static final Comparator<byte[]> ENTRY_ORDER = Arrays::compareUnsigned;
  private static final byte[] NO_VALUE = new byte[0];
  private static final int PREFIX = 8;

  private final ForstKeyedStateBackend backend;
  private final String name;
  private final StateCodec<N> namespaceCodec;
  private final byte[] prefix;
  private final Group<N>[] groups;
  /** Groups with timers, by earliest time. */
  private final TreeSet<Group<N>> heads = new TreeSet<>(
      Comparator.<Group<N>>comparingLong(g -> g.headTime).thenComparingInt(g -> g.index));
  /** Indexes of restored groups not read yet. */
  private final Set<Integer> unread = new LinkedHashSet<>();
  private final BytesOut key = new BytesOut(64);
  private final BytesIn in = new BytesIn();
  /** Timers cached per key group. */
  private final int cacheSize;
  /** Cached timers not in RocksDB yet, over all groups. */
  private long unwritten;
  /** The group {@link #writeDownIfOver} looks at next. */
  private int nextToWriteDown;

  /** Timers cached per key group for a backend of {@code keyGroups} key groups. */
  static int cacheSizeFor(int keyGroups) {
    return Math.max(MIN_CACHE, Math.min(MAX_CACHE, CACHE_BUDGET / keyGroups));
  }

  ForstTimerQueue(ForstKeyedStateBackend backend, String name, StateCodec<N> namespaceCodec, int cacheSize) {
    this.backend = backend;
    this.name = name;
    this.namespaceCodec = namespaceCodec;
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    BytesOut p = new BytesOut(PREFIX);
    p.writeInt(KEY_MARK);
    p.writeInt(io.tributary.state.Murmur3.hash32(n, 0, n.length));
    this.prefix = p.toByteArray();
    @SuppressWarnings("unchecked")
    Group<N>[] none = new Group[backend.keyGroupRange().size()];
    this.groups = none;
    this.cacheSize = cacheSize;
    for (int i = 0; i < groups.length; i++) {
      if (backend.restored(i)) {
        unread.add(i);
      }
    }
  }

  /** Whether {@code key[0, keyLen)} is a timer's entry (of any queue). */
  static boolean isTimerKey(byte[] key, int keyLen) {
    return keyLen >= 4 && key[0] == -1 && key[1] == -1 && key[2] == -1 && key[3] == -1;
  }

  /**
   * A cached timer: whether it is not in RocksDB yet (then also its entry, to write it down), and
   * its key and namespace as registered (handed out again when it fires, as the heap timers do);
   * null when read from RocksDB. Once written, or gone from the cache unwritten, it is marked
   * written.
   */
  private static final class Cached<N> {
    static final Cached<?> WRITTEN = new Cached<>(null, null, null);
    final byte[] entry;
    final Key key;
    final N namespace;
    boolean unwritten;

    Cached(byte[] entry, Key key, N namespace) {
      this.entry = entry;
      this.key = key;
      this.namespace = namespace;
      this.unwritten = entry != null;
    }
  }

  /** One key group's cached head. */
  private static final class Group<N> {
    final int index;
    /** The earliest timers, as entries without the queue's prefix. */
    final TreeMap<byte[], Cached<N>> cache = new TreeMap<>(ENTRY_ORDER);
    /** Cached timers not in RocksDB yet. */
    int unwritten;
    /**
     * The cached timers that were not in RocksDB when cached, in the order they came: every one of
     * the {@link #unwritten} is here (and others that were written or left since), so a write-down
     * visits these instead of the whole cache, most of which is in RocksDB already (walking the
     * caches was 54 of the 64 samples of flushes before snapshots, writing 8).
     */
    final ArrayList<Cached<N>> pending = new ArrayList<>();
    /** Whether the cache holds every timer of the group. */
    boolean complete;
    /** The time of the first cached timer: its position in {@link #heads}. */
    long headTime = Long.MAX_VALUE;
    /** Whether it is in {@link #heads} (its cache is not empty). */
    boolean listed;

    Group(int index) {
      this.index = index;
    }
  }

  @Override
  public void add(Key k, N namespace, long time) {
    int index = backend.indexOf(k);
    Group<N> g = group(index);
    byte[] entry = encode(k, namespace, time);
    if (!g.complete && ENTRY_ORDER.compare(entry, g.cache.lastKey()) > 0) {
      backend.shardAt(index).put(key.array(), key.size(), NO_VALUE, 0); // beyond the cache: in RocksDB only
      return;
    }
    Cached<N> cached = new Cached<>(entry, k, namespace);
    if (g.cache.putIfAbsent(entry, cached) != null) {
      return; // held already
    }
    g.unwritten++;
    unwritten++;
    addPending(g, cached);
    if (g.cache.size() > cacheSize) {
      Map.Entry<byte[], Cached<N>> last = g.cache.pollLastEntry();
      g.complete = false;
      Cached<N> out = last.getValue();
      if (out.unwritten) {
        left(g, out);
        write(index, last.getKey());
      }
    }
    reposition(g);
    writeDownIfOver();
  }

  /** Cached timers not in RocksDB yet; for tests. */
  long unwritten() {
    return unwritten;
  }

  /** Writes groups' unwritten timers down, the groups in turn, while more than {@link #MAX_UNWRITTEN} are. */
  private void writeDownIfOver() {
    while (unwritten > MAX_UNWRITTEN) {
      Group<N> g = groups[nextToWriteDown];
      nextToWriteDown = (nextToWriteDown + 1) % groups.length;
      if (g != null && g.unwritten > 0) {
        writeDown(g);
      }
    }
  }

  /**
   * Lists {@code cached}, just cached unwritten, in {@code g}'s pending timers; drops those no
   * longer unwritten first when they are most of the list.
   */
  private void addPending(Group<N> g, Cached<N> cached) {
    ArrayList<Cached<N>> pending = g.pending;
    if (pending.size() >= 2 * g.unwritten + MIN_CACHE) {
      pending.removeIf(c -> !c.unwritten);
    }
    pending.add(cached);
  }

  /** Counts {@code cached}, unwritten, as written or gone from the cache of {@code g}. */
  private void left(Group<N> g, Cached<N> cached) {
    cached.unwritten = false;
    g.unwritten--;
    unwritten--;
  }

  /** Writes every cached timer of {@code g} not in RocksDB yet to RocksDB; they stay cached. */
  private void writeDown(Group<N> g) {
    for (Cached<N> c : g.pending) {
      if (c.unwritten) {
        write(g.index, c.entry);
        c.unwritten = false;
      }
    }
    g.pending.clear();
    unwritten -= g.unwritten;
    g.unwritten = 0;
  }

  @Override
  public void remove(Key k, N namespace, long time) {
    int index = backend.indexOf(k);
    if (groups[index] == null && !backend.restored(index)) {
      return; // no timer was ever added to this group
    }
    Group<N> g = group(index);
    byte[] entry = encode(k, namespace, time);
    Cached<N> cached = g.cache.remove(entry);
    if (cached == null) {
      if (!g.complete && ENTRY_ORDER.compare(entry, g.cache.lastKey()) > 0) {
        backend.shardAt(index).delete(key.array(), key.size()); // beyond the cache: maybe in RocksDB
      }
      return;
    }
    if (cached.unwritten) {
      left(g, cached);
    } else {
      backend.shardAt(index).delete(key.array(), key.size());
    }
    taken(g, entry);
  }

  /**
   * Writes every cached timer not in RocksDB yet to RocksDB: before a snapshot of the backend, so
   * that the snapshot holds every timer and the caches can be read back from RocksDB after a restore.
   */
  void flush() {
    for (Group<N> g : groups) {
      if (g != null && g.unwritten > 0) {
        writeDown(g);
      }
    }
  }

  /** Puts the timer {@code entry} into the shard of group {@code index}. */
  private void write(int index, byte[] entry) {
    withPrefix(entry);
    backend.shardAt(index).put(key.array(), key.size(), NO_VALUE, 0);
  }

  @Override
  public long peekTime() {
    readRestored();
    return heads.isEmpty() ? Long.MAX_VALUE : heads.first().headTime;
  }

  @Override
  public Entry<N> poll(long maxTime) {
    readRestored();
    if (heads.isEmpty() || heads.first().headTime > maxTime) {
      return null;
    }
    Group<N> g = heads.first();
    Map.Entry<byte[], Cached<N>> first = g.cache.pollFirstEntry();
    byte[] entry = first.getKey();
    Cached<N> cached = first.getValue();
    if (cached.unwritten) {
      left(g, cached);
    } else {
      withPrefix(entry);
      backend.shardAt(g.index).delete(key.array(), key.size());
    }
    taken(g, entry);
    return cached.key != null ? new Entry<>(cached.key, cached.namespace, timeOf(entry)) : decode(entry);
  }

  /** After {@code entry}, which was cached, left the cache of {@code g}: refills it if it emptied. */
  private void taken(Group<N> g, byte[] entry) {
    if (g.cache.isEmpty() && !g.complete) {
      withPrefix(entry);
      refill(g, Arrays.copyOf(key.array(), key.size())); // everything not cached is beyond it: past the tombstones before it
    }
    reposition(g);
  }

  /** {@inheritDoc} Lists every timer of every key group that has state. */
  @Override
  public long size() {
    long n = 0;
    for (Group<N> g : groups) {
      n += g == null ? 0 : g.unwritten;
    }
    for (int i = 0; i < groups.length; i++) {
      Shard shard = backend.shardIfAny(i);
      if (shard == null) {
        continue;
      }
      try (RocksIterator it = shard.iterator()) {
        for (it.seek(prefix); it.isValid() && startsWithPrefix(it.key()); it.next()) {
          n++;
        }
      }
    }
    return n;
  }

  /** The group at {@code index}, its cache read from RocksDB if it was restored and not read yet. */
  private Group<N> group(int index) {
    Group<N> g = groups[index];
    if (g == null) {
      g = new Group<>(index);
      groups[index] = g;
      if (backend.restored(index)) {
        unread.remove(index);
        refill(g, prefix);
        reposition(g);
      } else {
        g.complete = true; // every timer it will hold goes through this queue
      }
    }
    return g;
  }

  /** Reads every restored group not read yet, their shards opened several at once. */
  private void readRestored() {
    if (unread.isEmpty()) {
      return;
    }
    for (int index : unread) {
      backend.startOpeningRestored(index);
    }
    for (Integer index : new ArrayList<>(unread)) {
      group(index);
    }
  }

  /** Fills the empty cache of {@code g} from RocksDB, from the entry {@code from} on. */
  private void refill(Group<N> g, byte[] from) {
    Shard shard = backend.shardIfAny(g.index);
    if (shard == null) {
      g.complete = true;
      return;
    }
    try (RocksIterator it = shard.iterator()) {
      it.seek(from);
      while (it.isValid() && g.cache.size() < cacheSize) {
        byte[] k = it.key();
        if (!startsWithPrefix(k)) {
          break;
        }
        g.cache.put(Arrays.copyOfRange(k, PREFIX, k.length), written());
        it.next();
      }
      g.complete = !it.isValid() || !startsWithPrefix(it.key());
      it.status();
    } catch (org.rocksdb.RocksDBException e) {
      throw new ForstStateException("timers '" + name + "' cannot be read in the shard of key group "
          + shard.keyGroup(), e);
    }
  }

  /** Moves {@code g} in {@link #heads} to its cache's earliest time (out of it when empty). */
  private void reposition(Group<N> g) {
    boolean listed = !g.cache.isEmpty();
    long time = listed ? timeOf(g.cache.firstKey()) : Long.MAX_VALUE;
    if (listed == g.listed && time == g.headTime) {
      return;
    }
    if (g.listed) {
      heads.remove(g);
    }
    g.headTime = time;
    g.listed = listed;
    if (listed) {
      heads.add(g);
    }
  }

  /** Builds the full RocksDB key of the timer in {@link #key}; returns the entry (without the prefix). */
  private byte[] encode(Key k, N namespace, long time) {
    key.truncate(0);
    key.write(prefix);
    key.writeLong(time ^ Long.MIN_VALUE);
    byte[] kb = k.bytes();
    key.writeVarInt(kb.length);
    key.write(kb);
    try {
      key.writeBoolean(namespace != null);
      if (namespace != null) {
        namespaceCodec.write(namespace, key);
      }
    } catch (IOException e) {
      throw new ForstStateException("timers '" + name + "' cannot encode a namespace", e);
    }
    return Arrays.copyOfRange(key.array(), PREFIX, key.size());
  }

  private Entry<N> decode(byte[] entry) {
    try {
      in.reset(entry, 0, entry.length);
      long time = in.readLong() ^ Long.MIN_VALUE;
      int len = in.readVarInt();
      int at = in.position();
      Key k = Key.fromBytes(Arrays.copyOfRange(entry, at, at + len));
      in.reset(entry, at + len, entry.length - at - len);
      return new Entry<>(k, in.readBoolean() ? namespaceCodec.read(in) : null, time);
    } catch (IOException | RuntimeException e) {
      throw new ForstStateException("timers '" + name + "' cannot decode a timer", e);
    }
  }

  private static long timeOf(byte[] entry) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = v << 8 | (entry[i] & 0xff);
    }
    return v ^ Long.MIN_VALUE;
  }

  @SuppressWarnings("unchecked")
  private static <N> Cached<N> written() {
    return (Cached<N>) Cached.WRITTEN;
  }

  /** Builds the full RocksDB key of the timer {@code entry} in {@link #key}. */
  private void withPrefix(byte[] entry) {
    key.truncate(0);
    key.write(prefix);
    key.write(entry);
  }

  private boolean startsWithPrefix(byte[] k) {
    return k.length >= PREFIX && Arrays.equals(k, 0, PREFIX, prefix, 0, PREFIX);
  }
}
