package io.tributary.state.heap;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.ListState;
import io.tributary.state.MapState;
import io.tributary.state.StateCodec;
import io.tributary.state.ValueState;
import io.tributary.state.WindowState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Keyed state kept as Java objects on the heap: the fast backend for tests, small jobs and the
 * embedded default.
 *
 * <p>Every state is organised per key group, in an array indexed by {@code keyGroup - range.start},
 * so that a later rescale can hand whole key groups to another owner. Values are kept as the
 * objects given (codecs are never called on the hot path); callers may therefore mutate an
 * accumulator in place, though code meant for every backend puts it back after a change.
 *
 * <p>A state name denotes one state: asking again for the same name and kind returns the same
 * handle; asking for it with another kind is refused. Used by one thread at a time.
 */
public final class HeapKeyedStateBackend implements KeyedStateBackend {
  private final KeyGroupRange range;
  private final int maxParallelism;
  private final Map<String, HeapState> states = new LinkedHashMap<>();
  private Key currentKey;
  private int currentGroupIndex = -1;
  private boolean closed;

  /**
   * A backend for the key groups {@code range} among {@code maxParallelism}.
   *
   * @throws IllegalArgumentException when the range does not fit in {@code [0, maxParallelism)}
   */
  public HeapKeyedStateBackend(KeyGroupRange range, int maxParallelism) {
    if (maxParallelism < 1 || maxParallelism > KeyGroups.UPPER_BOUND_MAX_PARALLELISM) {
      throw new IllegalArgumentException("maxParallelism must be in [1, "
          + KeyGroups.UPPER_BOUND_MAX_PARALLELISM + "], got " + maxParallelism);
    }
    if (range.end() > maxParallelism) {
      throw new IllegalArgumentException(
          "key group range " + range + " exceeds maxParallelism " + maxParallelism);
    }
    this.range = range;
    this.maxParallelism = maxParallelism;
  }

  @Override
  public KeyGroupRange keyGroupRange() {
    return range;
  }

  @Override
  public int maxParallelism() {
    return maxParallelism;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException when the key's group is not in this backend's range
   */
  @Override
  public void setCurrentKey(Key key) {
    checkOpen();
    int group = key.keyGroup(maxParallelism);
    if (!range.contains(group)) {
      throw new IllegalArgumentException("key " + key + " belongs to key group " + group
          + ", outside this backend's range " + range + " (maxParallelism " + maxParallelism
          + "): the record was routed to the wrong subtask");
    }
    currentKey = key;
    currentGroupIndex = group - range.start();
  }

  @Override
  public Key currentKey() {
    return currentKey;
  }

  /** Index of the current key's group in the per-key-group arrays. */
  int currentGroupIndex() {
    if (currentGroupIndex < 0) {
      throw new IllegalStateException("no current key: call setCurrentKey before using state");
    }
    return currentGroupIndex;
  }

  @Override
  public <T> ValueState<T> valueState(String name, StateCodec<T> codec) {
    return register(name, HeapValueState.class, () -> new HeapValueState<T>(this));
  }

  @Override
  public <K, V> MapState<K, V> mapState(
      String name, StateCodec<K> keyCodec, StateCodec<V> valueCodec) {
    return register(name, HeapMapState.class, () -> new HeapMapState<K, V>(this));
  }

  @Override
  public <T> ListState<T> listState(String name, StateCodec<T> codec) {
    return register(name, HeapListState.class, () -> new HeapListState<T>(this));
  }

  @Override
  public <W, A> WindowState<W, A> windowState(
      String name, StateCodec<W> windowCodec, StateCodec<A> accCodec) {
    return register(name, HeapWindowState.class, () -> new HeapWindowState<W, A>(this));
  }

  @SuppressWarnings("unchecked")
  private <S> S register(String name, Class<?> kind, Supplier<? extends HeapState> create) {
    checkOpen();
    HeapState existing = states.get(name);
    if (existing == null) {
      existing = create.get();
      states.put(name, existing);
    } else if (!kind.isInstance(existing)) {
      throw new IllegalStateException("state '" + name + "' already exists as "
          + existing.getClass().getSimpleName() + ", not " + kind.getSimpleName());
    }
    return (S) existing;
  }

  @Override
  public long approximateEntryCount() {
    long n = 0;
    for (HeapState s : states.values()) {
      n += s.entryCount();
    }
    return n;
  }

  /** Drops every state and entry; handles must not be used afterwards. */
  @Override
  public void close() {
    states.values().forEach(HeapState::clearAll);
    states.clear();
    currentKey = null;
    currentGroupIndex = -1;
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("state backend is closed");
    }
  }
}
