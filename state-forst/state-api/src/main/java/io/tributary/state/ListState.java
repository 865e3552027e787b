package io.tributary.state;

import java.util.List;

/** An append-friendly list per key, scoped to the backend's current key. */
public interface ListState<T> {
  void add(T value);

  /** The current key's list in insertion order; empty, never null. */
  List<T> get();

  void update(List<T> values);

  void clear();
}
