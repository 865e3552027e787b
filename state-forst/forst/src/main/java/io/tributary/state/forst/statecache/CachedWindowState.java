package io.tributary.state.forst.statecache;

import io.tributary.state.Combiner;
import io.tributary.state.WindowState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A cached {@link WindowState}: one entry per window. {@link #get} and {@link #put} (the window
 * operator's per-record path) touch only the cache once an entry is there; {@link #windows()}
 * lists the key's windows below once (without reading their accumulators), after which the key's
 * slot is complete and is answered from the cache, including windows not written down yet.
 * Windows must have {@code equals} consistent with their encoding.
 *
 * <p>With a combiner, {@link #add} reads nothing below: a window not cached keeps the added
 * accumulators in its entry until it is read (then the accumulator below is read and they are
 * folded in) or written down (then they are added below, which reads nothing there either).
 */
final class CachedWindowState<W, A> extends CachedState<W> implements WindowState<W, A> {
  private final WindowState<W, A> inner;

  CachedWindowState(CachingKeyedStateBackend backend, WindowState<W, A> inner, Combiner<A> combiner) {
    super(backend, inner, combiner);
    this.inner = inner;
  }

  @Override
  @SuppressWarnings("unchecked")
  public A get(W window) {
    return (A) read(window);
  }

  /**
   * {@inheritDoc}
   *
   * @throws NullPointerException if {@code accumulator} is null
   */
  @Override
  public void put(W window, A accumulator) {
    if (accumulator == null) {
      throw new NullPointerException("window accumulators must not be null");
    }
    write(window, accumulator);
  }

  @Override
  public void remove(W window) {
    write(window, null);
  }

  @Override
  public boolean add(W window, A delta) {
    return addTo(window, delta);
  }

  @Override
  public boolean addsWithoutReading() {
    return addsWithoutReading(inner.addsWithoutReading());
  }

  @Override
  @SuppressWarnings("unchecked")
  public Collection<W> windows() {
    Slot<W> s = completeSlot();
    if (s == null) {
      return new ArrayList<>();
    }
    List<W> out = new ArrayList<>(s.size());
    s.forEachEntry(e -> {
      if (e.live()) {
        out.add((W) e.ns);
      }
    });
    used(s);
    return out;
  }

  @Override
  Object load(W ns) {
    return inner.get(ns);
  }

  @Override
  @SuppressWarnings("unchecked")
  void store(W ns, Object value) {
    if (value == null) {
      inner.remove(ns);
    } else {
      inner.put(ns, (A) value);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  void addBelow(W ns, Object delta) {
    inner.add(ns, (A) delta);
  }

  @Override
  void loadAll(Slot<W> s) {
    for (W w : inner.windows()) {
      if (s.entry(w) == null) {
        s.add(new Entry(w, Entry.UNLOADED, false, true));
      }
    }
  }
}
