package io.tributary.state.forst.rocks;

import io.tributary.state.Key;
import io.tributary.state.StateCodec;
import io.tributary.state.TimerQueue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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
 * <p>On the heap, per key group used: a cache of its earliest timers (at most {@link #CACHE}, as
 * their entries' bytes, in RocksDB's order) and whether it holds all of them; and a set of the key
 * groups ordered by their earliest time. The
 * invariants: every timer of a group greater than the last of its cache is in RocksDB only, the
 * others are in both; a group's cache is empty only when the group has no timer. A registration
 * earlier than the last cached timer goes into the cache as well (pushing the last one out when it
 * is full); a deletion removes from RocksDB and the cache; a cache that empties is refilled from
 * RocksDB at once, seeking past the entry taken last (not over the tombstones of those before it). A key group restored and not used since is read (its shard opened, its first
 * timers listed) when it is first used, or when the earliest time is first asked for: then every
 * restored key group is, several shards being opened at once in the background.
 *
 * <p>Every timer added is written to RocksDB (a put of an existing timer changes nothing), and
 * every timer removed deleted, except where the cache shows the timer is already held or absent.
 * Used by the task thread only, like the backend.
 */
final class ForstTimerQueue<N> implements TimerQueue<N> {
  /** The state id of every timer entry. */
  static final int KEY_MARK = 0xffffffff;
  /** Timers cached per key group. */
  static final int CACHE = 128;
  private static final Comparator<byte[]> ENTRY_ORDER = Arrays::compareUnsigned;
  private static final byte[] NO_VALUE = new byte[0];
  private static final int PREFIX = 8;

  private final ForstKeyedStateBackend backend;
  private final String name;
  private final StateCodec<N> namespaceCodec;
  private final byte[] prefix;
  private final Group[] groups;
  /** Groups with timers, by earliest time. */
  private final TreeSet<Group> heads = new TreeSet<>(
      Comparator.<Group>comparingLong(g -> g.headTime).thenComparingInt(g -> g.index));
  /** Indexes of restored groups not read yet. */
  private final List<Integer> unread = new ArrayList<>();
  private final BytesOut key = new BytesOut(64);
  private final BytesIn in = new BytesIn();

  ForstTimerQueue(ForstKeyedStateBackend backend, String name, StateCodec<N> namespaceCodec) {
    this.backend = backend;
    this.name = name;
    this.namespaceCodec = namespaceCodec;
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    BytesOut p = new BytesOut(PREFIX);
    p.writeInt(KEY_MARK);
    p.writeInt(io.tributary.state.Murmur3.hash32(n, 0, n.length));
    this.prefix = p.toByteArray();
    this.groups = new Group[backend.keyGroupRange().size()];
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

  /** One key group's cached head. */
  private static final class Group {
    final int index;
    /** The earliest timers, as entries without the queue's prefix. */
    final TreeSet<byte[]> cache = new TreeSet<>(ENTRY_ORDER);
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
    Group g = group(index);
    byte[] entry = encode(k, namespace, time);
    if (g.cache.contains(entry)) {
      return;
    }
    Shard shard = backend.shardAt(index);
    shard.put(key.array(), key.size(), NO_VALUE, 0);
    if (g.complete || ENTRY_ORDER.compare(entry, g.cache.last()) < 0) {
      g.cache.add(entry);
      if (g.cache.size() > CACHE) {
        g.cache.pollLast(); // in RocksDB only now, beyond the last cached
        g.complete = false;
      }
      reposition(g);
    }
  }

  @Override
  public void remove(Key k, N namespace, long time) {
    int index = backend.indexOf(k);
    if (groups[index] == null && !backend.restored(index)) {
      return; // no timer was ever added to this group
    }
    Group g = group(index);
    byte[] entry = encode(k, namespace, time);
    boolean cached = g.cache.remove(entry);
    if (!cached && (g.complete || ENTRY_ORDER.compare(entry, g.cache.last()) < 0)) {
      return; // not held
    }
    backend.shardAt(index).delete(key.array(), key.size());
    if (cached) {
      taken(g, entry);
    }
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
    Group g = heads.first();
    byte[] entry = g.cache.pollFirst();
    key.truncate(0);
    key.write(prefix);
    key.write(entry);
    backend.shardAt(g.index).delete(key.array(), key.size());
    taken(g, entry);
    return decode(entry);
  }

  /** After {@code entry}, which was cached, left the cache of {@code g}: refills it if it emptied. */
  private void taken(Group g, byte[] entry) {
    if (g.cache.isEmpty() && !g.complete) {
      refill(g, withPrefix(entry)); // everything not cached is beyond it, past the tombstones before it
    }
    reposition(g);
  }

  /** {@inheritDoc} Lists every timer of every key group that has state. */
  @Override
  public long size() {
    long n = 0;
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
  private Group group(int index) {
    Group g = groups[index];
    if (g == null) {
      g = new Group(index);
      groups[index] = g;
      if (backend.restored(index)) {
        unread.remove(Integer.valueOf(index));
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
  private void refill(Group g, byte[] from) {
    Shard shard = backend.shardIfAny(g.index);
    if (shard == null) {
      g.complete = true;
      return;
    }
    try (RocksIterator it = shard.iterator()) {
      it.seek(from);
      while (it.isValid() && g.cache.size() < CACHE) {
        byte[] k = it.key();
        if (!startsWithPrefix(k)) {
          break;
        }
        g.cache.add(Arrays.copyOfRange(k, PREFIX, k.length));
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
  private void reposition(Group g) {
    boolean listed = !g.cache.isEmpty();
    long time = listed ? timeOf(g.cache.first()) : Long.MAX_VALUE;
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

  private byte[] withPrefix(byte[] entry) {
    byte[] k = Arrays.copyOf(prefix, PREFIX + entry.length);
    System.arraycopy(entry, 0, k, PREFIX, entry.length);
    return k;
  }

  private boolean startsWithPrefix(byte[] k) {
    return k.length >= PREFIX && Arrays.equals(k, 0, PREFIX, prefix, 0, PREFIX);
  }
}
