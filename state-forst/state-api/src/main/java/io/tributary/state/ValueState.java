package io.tributary.state;

/** One value per key, scoped to the backend's current key. */
public interface ValueState<T> {
  /** The value for the current key, or null. */
  T value();

  void update(T value);

  void clear();
}
