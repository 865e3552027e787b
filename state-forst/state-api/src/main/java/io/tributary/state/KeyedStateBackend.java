package io.tributary.state;

/**
 * Keyed state of one stateful operator instance for a range of key groups.
 *
 * <p>Every state handle is scoped to the current key, set with {@link #setCurrentKey}. Handles are
 * created once (usually in {@code open}) and stay valid for the backend's life. A backend is used by
 * one thread at a time (the task thread), so implementations need no locks.
 */
public interface KeyedStateBackend extends AutoCloseable {
  /** The key groups this backend holds. Keys of other key groups are refused. */
  KeyGroupRange keyGroupRange();

  int maxParallelism();

  /** Scopes every state handle to {@code key}. */
  void setCurrentKey(Key key);

  Key currentKey();

  <T> ValueState<T> valueState(String name, StateCodec<T> codec);

  /** Map state without a combiner: its {@link MapState#add} is refused. */
  default <K, V> MapState<K, V> mapState(String name, StateCodec<K> keyCodec, StateCodec<V> valueCodec) {
    return mapState(name, keyCodec, valueCodec, null);
  }

  /**
   * Map state whose {@link MapState#add} folds values with {@code combiner} (null: no {@code add}).
   * {@code valueCodec} must read exactly the bytes it wrote, for a backend may keep an entry's
   * added values one after another and fold them when it reads.
   */
  <K, V> MapState<K, V> mapState(String name, StateCodec<K> keyCodec, StateCodec<V> valueCodec,
      Combiner<V> combiner);

  <T> ListState<T> listState(String name, StateCodec<T> codec);

  /** Window state without a combiner: its {@link WindowState#add} is refused. */
  default <W, A> WindowState<W, A> windowState(String name, StateCodec<W> windowCodec, StateCodec<A> accCodec) {
    return windowState(name, windowCodec, accCodec, null);
  }

  /**
   * Window state whose {@link WindowState#add} folds accumulators with {@code combiner} (null: no
   * {@code add}). {@code accCodec} must read exactly the bytes it wrote, for a backend may keep a
   * window's added accumulators one after another and fold them when it reads.
   */
  <W, A> WindowState<W, A> windowState(String name, StateCodec<W> windowCodec, StateCodec<A> accCodec,
      Combiner<A> combiner);

  /**
   * The timers named {@code name} kept by this backend with its state, whose namespaces {@code
   * namespaceCodec} encodes; asking again for a name returns the same queue. Null when this backend
   * keeps no timers (the default): the caller keeps them itself, on the heap.
   */
  default <N> TimerQueue<N> timerQueue(String name, StateCodec<N> namespaceCodec) {
    return null;
  }

  /** Number of (key, namespace) entries held across all states; for metrics and tests. */
  long approximateEntryCount();

  /**
   * Snapshots the state (contract C6). What must happen on the task thread happens before this
   * returns (for example a RocksDB checkpoint, which is hard links); uploading happens after, and
   * the future completes when the snapshot is durable. Processing may continue meanwhile.
   *
   * @throws UnsupportedOperationException if this backend cannot snapshot
   */
  default java.util.concurrent.CompletableFuture<StateSnapshot> snapshot(long checkpointId) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot snapshot");
  }

  @Override
  void close();
}
