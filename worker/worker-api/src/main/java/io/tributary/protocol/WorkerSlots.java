package io.tributary.protocol;

/**
 * Slots of one worker granted to an attempt: one slot runs one task.
 *
 * @param worker the worker's id, unique within the pool
 * @param slots how many of its slots the attempt may use
 */
public record WorkerSlots(String worker, int slots) {
  public WorkerSlots {
    if (slots < 0) {
      throw new IllegalArgumentException("slots must be >= 0, got " + slots);
    }
  }
}
