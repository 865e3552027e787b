package io.tributary.worker.operator;

import io.tributary.stream.Record;

/**
 * A streaming operator: one required method, everything else defaulted.
 *
 * <p>All methods run on the task thread, one at a time, so implementations need no locks. The
 * runtime calls {@link #open} once, then any mix of {@link #processElement}, {@link #onWatermark}
 * and {@link #onTimer}, then {@link #finish} once when every input has ended (after the final
 * watermark {@code Long.MAX_VALUE}), then {@link #close}. Watermarks passed in never go back.
 */
public interface Operator {
  default void open(OperatorContext context) {}

  /** Handles one record; results go to {@code out}. */
  void processElement(Record record, Output out);

  /**
   * Event time advanced to {@code watermark}. Timers due at or before it have already fired. Returns
   * the watermark to forward downstream (by default the same).
   */
  default long onWatermark(long watermark, Output out) {
    return watermark;
  }

  /** An event-time timer registered through {@link TimerService} is due. */
  default void onTimer(Timer timer, Output out) {}

  /**
   * Checkpoint barrier {@code checkpointId} reached this operator, just before the task takes its
   * snapshot (keyed state, timers and sink pre-commits are taken by the runtime).
   */
  default void onBarrier(long checkpointId) {}

  /** Every input has ended; flush what is buffered. */
  default void finish(Output out) {}

  /** Releases resources; called once, also after a failure. */
  default void close() {}
}
