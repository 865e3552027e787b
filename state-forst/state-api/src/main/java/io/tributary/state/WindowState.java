package io.tributary.state;

import java.util.Collection;

/**
 * Window contents: one accumulator per (current key, window). Windows are the namespace of the
 * state; {@link #windows()} lists the current key's windows, which merging (session) windows need.
 *
 * <p>A state made with a {@link Combiner} also takes {@link #add}: records' accumulators folded
 * into the window's by the combiner, which a state whose accumulators live below a cache can do
 * without reading them ({@link #addsWithoutReading}), deferring the read to the next {@link #get}.
 */
public interface WindowState<W, A> {
  /** The accumulator of {@code window} for the current key, or null. */
  A get(W window);

  void put(W window, A accumulator);

  void remove(W window);

  /** The windows that hold an accumulator for the current key (a snapshot, safe to modify state). */
  Collection<W> windows();

  /**
   * Adds {@code delta} (the accumulator of records not counted yet; the state takes it over, so
   * the caller must not touch it again) to the window's accumulator, or makes it the window's
   * accumulator when the window has none. Returns true when the window certainly had an
   * accumulator before; false when it had none, or when the state cannot tell without reading it.
   *
   * @throws UnsupportedOperationException if the state was made without a {@link Combiner}
   */
  boolean add(W window, A delta);

  /**
   * Whether {@link #add} saves reading the accumulator here, so that a caller choosing between
   * {@link #get}-update-{@link #put} and {@link #add} should add. False when the state was made
   * without a combiner.
   */
  default boolean addsWithoutReading() {
    return false;
  }
}
