package io.tributary.worker.operator;

import io.tributary.stream.Record;

/**
 * An operator with two inputs, such as a join: each record comes tagged with the input it arrived
 * on, {@link #LEFT} or {@link #RIGHT}. Everything else is as for any {@link Operator}: one
 * watermark, the minimum of both inputs' (a record of either input is late only against it),
 * barriers aligned across both inputs before {@link #onBarrier}, timers, {@code finish} once both
 * inputs ended.
 */
public interface TwoInputOperator extends Operator {
  /** The first input (a join's left side). */
  int LEFT = 0;
  /** The second input (a join's right side). */
  int RIGHT = 1;

  /** Handles one record of input {@code input} ({@link #LEFT} or {@link #RIGHT}); results go to {@code out}. */
  void processElement(int input, Record record, Output out);

  /**
   * Not used: the runtime always says which input a record came from.
   *
   * @throws IllegalStateException always
   */
  @Override
  default void processElement(Record record, Output out) {
    throw new IllegalStateException(getClass().getSimpleName() + " has two inputs: say which one a record came from");
  }
}
