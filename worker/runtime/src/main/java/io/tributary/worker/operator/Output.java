package io.tributary.worker.operator;

import io.tributary.stream.Record;

/**
 * Where an operator's results go. Emitting never blocks and never fails for lack of room: the task
 * stops taking new input while downstream has no credit, so what one input element produces is
 * the most that waits (contract C2).
 */
public interface Output {
  /** Sends {@code record} to the main output. */
  void emit(Record record);

  /**
   * Sends {@code record} to the side output named {@code name} (a late output, a dead-letter
   * output). Records for a side output nobody consumes are discarded.
   */
  void emitSide(String name, Record record);
}
