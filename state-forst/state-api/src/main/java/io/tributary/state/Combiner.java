package io.tributary.state;

/**
 * Folds one value of a state into another, for states that take additions without reading
 * ({@link WindowState#add}, {@link MapState#add}). For the results to equal those of adding the
 * records one by one, {@code combine(value, delta of one record)} must leave {@code value} as adding
 * that record would; states fold deltas in the order they were added.
 */
@FunctionalInterface
public interface Combiner<A> {
  /** Adds what {@code delta} holds to {@code into}, in place. */
  void combine(A into, A delta);
}
