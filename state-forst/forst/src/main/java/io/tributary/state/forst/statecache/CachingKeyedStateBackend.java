package io.tributary.state.forst.statecache;

import io.tributary.state.Combiner;
import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import io.tributary.state.StateSnapshot;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A write-back cache of deserialized state in front of another keyed state backend (a decorator, like
 * Kafka Streams' caching stores): a decorator that behaves exactly like the backend it wraps,
 * only faster when keys are used again.
 *
 * <p>What a caller may rely on:
 *
 * <ul>
 *   <li>Reads see every earlier write of this backend, whether or not it was written down yet;
 *       listings ({@code windows()}, {@code entries()}) include cached, unwritten entries and omit
 *       cached removals.
 *   <li>The cache holds at most {@code maxEntries} (state, key, namespace) entries, counting each
 *       cached (state, key) as one more; beyond that the least recently used keys are evicted,
 *       their changes written to the inner backend first. Removals are kept as tombstones until
 *       then.
 *   <li>When more than {@value StateCache#MAX_DIRTY_SLOTS} cached (state, key)s hold changes not
 *       written down, the least recently used of them are written down (they stay cached), so a
 *       snapshot has a bounded amount to write on the calling thread.
 *   <li>{@link #snapshot} writes every cached change to the inner backend before the inner backend
 *       snapshots, so a snapshot holds exactly what was written before it.
 *   <li>Values are kept as the objects given and handed out as they are (they are encoded only when
 *       written down): a caller may change a value it read and put it back, as the window operator
 *       does with accumulators. A change that is not put back may or may not last, as with the
 *       heap backend; code meant for every backend puts values back.
 * </ul>
 *
 * <p>The inner backend's current key is the one of the last access below; this decorator sets it
 * before every call it makes. Used by one thread at a time, like every backend.
 */
public final class CachingKeyedStateBackend implements KeyedStateBackend {
  private final KeyedStateBackend inner;
  private final StateCache cache;
  private final Map<String, CachedState<?>> states = new HashMap<>();
  private Key currentKey;
  private long keyVersion;
  private boolean closed;

  /**
   * Wraps {@code inner}, which this backend then owns (closing this closes it).
   *
   * @param maxEntries the bound, at least 1
   */
  public CachingKeyedStateBackend(KeyedStateBackend inner, long maxEntries) {
    this(inner, maxEntries, new LongAdder(), new LongAdder());
  }

  /** Like {@link #CachingKeyedStateBackend(KeyedStateBackend, long)}, adding its reads answered and not to the totals. */
  public CachingKeyedStateBackend(KeyedStateBackend inner, long maxEntries, LongAdder hits, LongAdder misses) {
    this(inner, maxEntries, StateCache.MAX_DIRTY_SLOTS, hits, misses);
  }

  /** The same, writing down the least recently used dirty keys while more than {@code maxDirtySlots} are dirty. */
  CachingKeyedStateBackend(KeyedStateBackend inner, long maxEntries, long maxDirtySlots, LongAdder hits,
      LongAdder misses) {
    this.inner = inner;
    this.cache = new StateCache(maxEntries, maxDirtySlots, hits, misses);
  }

  @Override
  public KeyGroupRange keyGroupRange() {
    return inner.keyGroupRange();
  }

  @Override
  public int maxParallelism() {
    return inner.maxParallelism();
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException when the inner backend refuses the key
   */
  @Override
  public void setCurrentKey(Key key) {
    checkOpen();
    inner.setCurrentKey(key);
    if (key != currentKey) {
      currentKey = key;
      keyVersion++;
    }
  }

  @Override
  public Key currentKey() {
    return currentKey;
  }

  @Override
  public <T> ValueState<T> valueState(String name, StateCodec<T> codec) {
    ValueState<T> below = inner.valueState(name, codec);
    return register(name, () -> new CachedValueState<>(this, below));
  }

  @Override
  public <K, V> MapState<K, V> mapState(String name, StateCodec<K> keyCodec, StateCodec<V> valueCodec,
      Combiner<V> combiner) {
    MapState<K, V> below = inner.mapState(name, keyCodec, valueCodec, combiner);
    return register(name, () -> new CachedMapState<>(this, below, combiner));
  }

  @Override
  public <T> ListState<T> listState(String name, StateCodec<T> codec) {
    ListState<T> below = inner.listState(name, codec);
    return register(name, () -> new CachedListState<>(this, below));
  }

  @Override
  public <W, A> WindowState<W, A> windowState(String name, StateCodec<W> windowCodec, StateCodec<A> accCodec,
      Combiner<A> combiner) {
    WindowState<W, A> below = inner.windowState(name, windowCodec, accCodec, combiner);
    return register(name, () -> new CachedWindowState<>(this, below, combiner));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The inner backend's queue, not cached: it takes the timer's key with every call, so the
   * inner backend's current key (which evictions move) does not matter to it.
   */
  @Override
  public <N> io.tributary.state.TimerQueue<N> timerQueue(String name, StateCodec<N> namespaceCodec) {
    checkOpen();
    return inner.timerQueue(name, namespaceCodec);
  }

  /** The inner backend has already checked the name and kind: a name has one handle. */
  @SuppressWarnings("unchecked")
  private <S> S register(String name, Supplier<? extends CachedState<?>> create) {
    return (S) states.computeIfAbsent(name, n -> create.get());
  }

  /**
   * A slot of the current key became dirty: it will be written below at the latest before the next
   * snapshot, so a forst backend starts opening the key's shard now, in the background, rather than
   * on the task thread then.
   */
  void dirtied() {
    if (inner instanceof io.tributary.state.forst.rocks.ForstKeyedStateBackend forst) {
      forst.prepareCurrentShard();
    }
  }

  /** The inner backend's estimate plus the cached changes not written down yet (roughly). */
  @Override
  public long approximateEntryCount() {
    return inner.approximateEntryCount() + cache.entries();
  }

  /**
   * {@inheritDoc}
   *
   * <p>First writes every cached change to the inner backend (on the calling thread); the cached
   * entries stay, clean.
   */
  @Override
  public CompletableFuture<StateSnapshot> snapshot(long checkpointId) {
    checkOpen();
    if (inner instanceof io.tributary.state.forst.rocks.ForstKeyedStateBackend forst) {
      forst.openShards(cache.dirtyKeys());
    }
    cache.flushAll();
    cache.publishReads();
    return inner.snapshot(checkpointId);
  }

  /** Drops the cache without writing it down (unsnapshotted state is lost anyway) and closes the inner backend. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    keyVersion++;
    cache.publishReads();
    cache.clear();
    states.values().forEach(CachedState::forgetAll);
    states.clear();
    currentKey = null;
    inner.close();
  }

  /** The number of slots evicted so far; for tests and metrics. */
  public long evictions() {
    return cache.evictions();
  }

  /** The number of dirty slots written down before a snapshot needed them, because too many were dirty; for tests. */
  long writtenBehind() {
    return cache.writtenBehind();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("state backend is closed");
    }
  }

  StateCache cache() {
    return cache;
  }

  long keyVersion() {
    return keyVersion;
  }

  /**
   * The current key, checked usable.
   *
   * @throws IllegalStateException when the backend is closed or no key is set
   */
  Key checkedCurrentKey() {
    checkOpen();
    if (currentKey == null) {
      throw new IllegalStateException("no current key: call setCurrentKey before using state");
    }
    return currentKey;
  }

  /** Sets the inner backend's current key to this backend's. */
  void innerAtCurrentKey() {
    inner.setCurrentKey(checkedCurrentKey());
  }

  /** Sets the inner backend's current key to {@code key}, to write a slot down. */
  void innerAt(Key key) {
    inner.setCurrentKey(key);
  }
}
