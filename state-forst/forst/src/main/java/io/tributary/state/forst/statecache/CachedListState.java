package io.tributary.state.forst.statecache;

import io.tributary.state.ListState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A cached {@link ListState}: the key's whole list as one entry, an {@link ArrayList} owned by the
 * cache (callers get copies). An {@link #add} on a miss reads the list below once.
 */
final class CachedListState<T> extends CachedState<Object> implements ListState<T> {
  private static final Object NO_NAMESPACE = new Object();

  private final ListState<T> inner;

  CachedListState(CachingKeyedStateBackend backend, ListState<T> inner) {
    super(backend, inner);
    this.inner = inner;
  }

  @Override
  public void add(T value) {
    List<T> list = cached();
    if (list == null) {
      list = new ArrayList<>();
    }
    list.add(value);
    write(NO_NAMESPACE, list); // (again) marks it dirty
  }

  @Override
  public List<T> get() {
    List<T> list = cached();
    return list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list));
  }

  @Override
  public void update(List<T> values) {
    write(NO_NAMESPACE, values.isEmpty() ? null : new ArrayList<>(values));
  }

  @Override
  public void clear() {
    write(NO_NAMESPACE, null);
  }

  @SuppressWarnings("unchecked")
  private List<T> cached() {
    return (List<T>) read(NO_NAMESPACE);
  }

  @Override
  Object load(Object ns) {
    List<T> below = inner.get();
    return below.isEmpty() ? null : new ArrayList<>(below);
  }

  @Override
  @SuppressWarnings("unchecked")
  void store(Object ns, Object value) {
    if (value == null) {
      inner.clear();
    } else {
      inner.update((List<T>) value);
    }
  }

  @Override
  void loadAll(Slot<Object> s) {
    if (s.entry(NO_NAMESPACE) == null) {
      Object v = load(NO_NAMESPACE);
      s.add(new Entry(NO_NAMESPACE, v, false, v != null));
    }
  }
}
