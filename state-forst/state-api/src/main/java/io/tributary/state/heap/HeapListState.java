package io.tributary.state.heap;

import io.tributary.state.ListState;
import io.tributary.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A list per key, kept as an {@link ArrayList}. {@link #get} returns an unmodifiable copy. */
final class HeapListState<T> implements ListState<T>, HeapState {
  private final HeapKeyedStateBackend backend;
  private final KeyGroupedTable<List<T>> table;
  private final StateCodec<T> codec;

  HeapListState(HeapKeyedStateBackend backend, StateCodec<T> codec) {
    this.backend = backend;
    this.codec = codec;
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
  public HeapStateKind kind() {
    return HeapStateKind.LIST;
  }

  @Override
  public long entryCount() {
    return table.count(l -> 1);
  }

  @Override
  public long entryCount(int groupIndex) {
    return table.size(groupIndex);
  }

  @Override
  public void write(int groupIndex, DataOutput out) throws IOException {
    table.write(groupIndex, out, (list, o) -> {
      o.writeInt(list.size());
      for (T t : list) {
        codec.write(t, o);
      }
    });
  }

  @Override
  public void read(int groupIndex, int keyGroup, int maxParallelism, DataInput in) throws IOException {
    table.read(groupIndex, keyGroup, maxParallelism, in, i -> {
      int n = i.readInt();
      List<T> list = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        list.add(codec.read(i));
      }
      return list;
    });
  }

  @Override
  public void clearAll() {
    table.clear();
  }
}
