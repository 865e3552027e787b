package io.tributary.state.heap;

import io.tributary.state.StateCodec;
import io.tributary.state.ValueState;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** One value per key, kept as an object. */
final class HeapValueState<T> implements ValueState<T>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<T> table;
  private final StateCodec<T> codec;

  HeapValueState(HeapKeyedStateBackend backend, StateCodec<T> codec) {
    this.backend = backend;
    this.codec = codec;
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
  public HeapStateKind kind() {
    return HeapStateKind.VALUE;
  }

  @Override
  public long entryCount() {
    return table.count(v -> 1);
  }

  @Override
  public long entryCount(int groupIndex) {
    return table.size(groupIndex);
  }

  @Override
  public void write(int groupIndex, DataOutput out) throws IOException {
    table.write(groupIndex, out, codec::write);
  }

  @Override
  public void read(int groupIndex, int keyGroup, int maxParallelism, DataInput in) throws IOException {
    table.read(groupIndex, keyGroup, maxParallelism, in, codec::read);
  }

  @Override
  public void clearAll() {
    table.clear();
  }
}
