package io.tributary.state.heap;

import io.tributary.state.ValueState;

/** One value per key, kept as an object. */
final class HeapValueState<T> implements ValueState<T>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<T> table;

  HeapValueState(HeapKeyedStateBackend backend) {
    this.backend = backend;
    this.table = new KeyGroupedTable<>(backend.keyGroupRange().size());
  }

  @Override
  public T value() {
    return table.get(backend.currentGroupIndex(), backend.currentKey());
  }

  @Override
  public void update(T value) {
    if (value == null) {
      clear();
    } else {
      table.put(backend.currentGroupIndex(), backend.currentKey(), value);
    }
  }

  @Override
  public void clear() {
    table.remove(backend.currentGroupIndex(), backend.currentKey());
  }

  @Override
  public long entryCount() {
    return table.count(v -> 1);
  }

  @Override
  public void clearAll() {
    table.clear();
  }
}
