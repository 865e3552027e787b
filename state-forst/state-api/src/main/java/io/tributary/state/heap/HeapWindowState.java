package io.tributary.state.heap;

import io.tributary.state.Combiner;
import io.tributary.state.Key;
import io.tributary.state.StateCodec;
import io.tributary.state.WindowState;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * Accumulators per (key, window): a {@link WindowMap} of windows per key. Accumulators are kept as
 * the objects given, so a caller may mutate one in place; putting it back is cheap.
 */
final class HeapWindowState<W, A> implements WindowState<W, A>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<WindowMap<W, A>> table;
  private final StateCodec<W> windowCodec;
  private final StateCodec<A> accCodec;
  private final Combiner<A> combiner;
  /**
   * The windows of the key last looked up ({@code cachedKey}, compared by identity) or null if it
   * has none: an operator reads and writes a key's windows several times in a row (get, put; on a
   * timer get, remove), and each lookup of a fresh key's bytes in the table costs a cache miss.
   */
  private Object cachedKey = NONE;
  private WindowMap<W, A> cachedWindows;
  private static final Object NONE = new Object();

  HeapWindowState(HeapKeyedStateBackend backend, StateCodec<W> windowCodec, StateCodec<A> accCodec,
      Combiner<A> combiner) {
    this.backend = backend;
    this.windowCodec = windowCodec;
    this.accCodec = accCodec;
    this.combiner = combiner;
    this.table = new KeyGroupedTable<>(backend.keyGroupRange().size());
  }

  @Override
  public A get(W window) {
    WindowMap<W, A> m = windowsOfCurrentKey();
    return m == null ? null : m.get(window);
  }

  private WindowMap<W, A> windowsOfCurrentKey() {
    Key key = backend.currentKey();
    if (key != cachedKey) {
      cachedWindows = table.get(backend.currentGroupIndex(), key);
      cachedKey = key;
    }
    return cachedWindows;
  }

  private void forgetCachedKey() {
    cachedKey = NONE;
    cachedWindows = null;
  }

  @Override
  public void put(W window, A accumulator) {
    WindowMap<W, A> m = windowsOfCurrentKey();
    if (m == null) {
      m = new WindowMap<>();
      table.put(backend.currentGroupIndex(), backend.currentKey(), m);
      cachedWindows = m;
    }
    m.put(window, accumulator);
  }

  @Override
  public void remove(W window) {
    WindowMap<W, A> m = windowsOfCurrentKey();
    if (m != null && m.remove(window) && m.isEmpty()) {
      table.remove(backend.currentGroupIndex(), backend.currentKey());
      cachedWindows = null;
    }
  }

  /** {@inheritDoc} Here a read of the accumulator on the heap, which it updates in place. */
  @Override
  public boolean add(W window, A delta) {
    if (combiner == null) {
      throw new UnsupportedOperationException("window state made without a combiner");
    }
    A acc = get(window);
    if (acc == null) {
      put(window, delta);
      return false;
    }
    combiner.combine(acc, delta);
    return true;
  }

  @Override
  public Collection<W> windows() {
    WindowMap<W, A> m = windowsOfCurrentKey();
    return m == null ? List.of() : m.windows();
  }

  @Override
  public HeapStateKind kind() {
    return HeapStateKind.WINDOW;
  }

  @Override
  public long entryCount() {
    return table.count(WindowMap::size);
  }

  @Override
  public long entryCount(int groupIndex) {
    return table.count(groupIndex, WindowMap::size);
  }

  @Override
  public void write(int groupIndex, DataOutput out) throws IOException {
    table.write(groupIndex, out, (m, o) -> m.write(o, windowCodec, accCodec));
  }

  @Override
  public void read(int groupIndex, int keyGroup, int maxParallelism, DataInput in) throws IOException {
    forgetCachedKey();
    table.read(groupIndex, keyGroup, maxParallelism, in, i -> {
      int n = i.readInt();
      WindowMap<W, A> m = new WindowMap<>();
      for (int k = 0; k < n; k++) {
        m.put(windowCodec.read(i), accCodec.read(i));
      }
      return m;
    });
  }

  @Override
  public void clearAll() {
    forgetCachedKey();
    table.clear();
  }
}
