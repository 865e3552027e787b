package io.tributary.state.heap;

import io.tributary.state.ListState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A list per key, kept as an {@link ArrayList}. {@link #get} returns an unmodifiable copy. */
final class HeapListState<T> implements ListState<T>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<List<T>> table;

  HeapListState(HeapKeyedStateBackend backend) {
    this.backend = backend;
    this.table = new KeyGroupedTable<>(backend.keyGroupRange().size());
  }

  @Override
  public void add(T value) {
    int g = backend.currentGroupIndex();
    List<T> list = table.get(g, backend.currentKey());
    if (list == null) {
      list = new ArrayList<>();
      table.put(g, backend.currentKey(), list);
    }
    list.add(value);
  }

  @Override
  public List<T> get() {
    List<T> list = table.get(backend.currentGroupIndex(), backend.currentKey());
    return list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list));
  }

  @Override
  public void update(List<T> values) {
    if (values.isEmpty()) {
      clear();
    } else {
      table.put(backend.currentGroupIndex(), backend.currentKey(), new ArrayList<>(values));
    }
  }

  @Override
  public void clear() {
    table.remove(backend.currentGroupIndex(), backend.currentKey());
  }

  @Override
  public long entryCount() {
    return table.count(l -> 1);
  }

  @Override
  public void clearAll() {
    table.clear();
  }
}
