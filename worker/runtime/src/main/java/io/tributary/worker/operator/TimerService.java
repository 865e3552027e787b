package io.tributary.worker.operator;

/**
 * Event-time timers of a keyed operator, scoped to the state backend's current key. Timers are kept
 * in a priority queue by time and deduplicated per (key, namespace, time); when one fires, the
 * backend's current key is set to the timer's key before {@link Operator#onTimer} runs.
 */
public interface TimerService {
  /** Registers a timer for the current key; registering the same (key, namespace, time) again is a no-op. */
  void register(Object namespace, long time);

  /** Deletes a timer of the current key, if present. */
  void delete(Object namespace, long time);

  /** The operator's current watermark ({@code Long.MIN_VALUE} before the first). */
  long currentWatermark();
}
