package io.tributary.state;

import java.util.Collection;

/**
 * Window contents: one accumulator per (current key, window). Windows are the namespace of the
 * state; {@link #windows()} lists the current key's windows, which merging (session) windows need.
 */
public interface WindowState<W, A> {
  /** The accumulator of {@code window} for the current key, or null. */
  A get(W window);

  void put(W window, A accumulator);

  void remove(W window);

  /** The windows that hold an accumulator for the current key (a snapshot, safe to modify state). */
  Collection<W> windows();
}
