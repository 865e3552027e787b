package io.tributary.state.heap;

import io.tributary.state.WindowState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Accumulators per (key, window): a {@link HashMap} of windows per key. Accumulators are kept as
 * the objects given, so a caller may mutate one in place; putting it back is cheap.
 */
final class HeapWindowState<W, A> implements WindowState<W, A>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<Map<W, A>> table;

  HeapWindowState(HeapKeyedStateBackend backend) {
    this.backend = backend;
    this.table = new KeyGroupedTable<>(backend.keyGroupRange().size());
  }

  @Override
  public A get(W window) {
    Map<W, A> m = table.get(backend.currentGroupIndex(), backend.currentKey());
    return m == null ? null : m.get(window);
  }

  @Override
  public void put(W window, A accumulator) {
    int g = backend.currentGroupIndex();
    Map<W, A> m = table.get(g, backend.currentKey());
    if (m == null) {
      m = new HashMap<>(4);
      table.put(g, backend.currentKey(), m);
    }
    m.put(window, accumulator);
  }

  @Override
  public void remove(W window) {
    int g = backend.currentGroupIndex();
    Map<W, A> m = table.get(g, backend.currentKey());
    if (m != null && m.remove(window) != null && m.isEmpty()) {
      table.remove(g, backend.currentKey());
    }
  }

  @Override
  public Collection<W> windows() {
    Map<W, A> m = table.get(backend.currentGroupIndex(), backend.currentKey());
    return m == null ? List.of() : new ArrayList<>(m.keySet());
  }

  @Override
  public long entryCount() {
    return table.count(Map::size);
  }

  @Override
  public void clearAll() {
    table.clear();
  }
}
