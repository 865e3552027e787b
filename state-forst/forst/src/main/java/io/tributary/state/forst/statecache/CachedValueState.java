package io.tributary.state.forst.statecache;

import io.tributary.state.ValueState;

/** A cached {@link ValueState}: one entry per key, under a constant namespace. */
final class CachedValueState<T> extends CachedState<Object> implements ValueState<T> {
  private static final Object NO_NAMESPACE = new Object();

  private final ValueState<T> inner;

  CachedValueState(CachingKeyedStateBackend backend, ValueState<T> inner) {
    super(backend, inner);
    this.inner = inner;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T value() {
    return (T) read(NO_NAMESPACE);
  }

  @Override
  public void update(T value) {
    write(NO_NAMESPACE, value);
  }

  @Override
  public void clear() {
    write(NO_NAMESPACE, null);
  }

  @Override
  Object load(Object ns) {
    return inner.value();
  }

  @Override
  @SuppressWarnings("unchecked")
  void store(Object ns, Object value) {
    if (value == null) {
      inner.clear();
    } else {
      inner.update((T) value);
    }
  }

  @Override
  void loadAll(Slot<Object> s) {
    if (s.entry(NO_NAMESPACE) == null) {
      Object v = inner.value();
      s.add(new Entry(NO_NAMESPACE, v, false, v != null));
    }
  }
}
