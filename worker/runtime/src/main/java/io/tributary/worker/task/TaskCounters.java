package io.tributary.worker.task;

/**
 * Progress counters of one task, written by its thread and read by reporters. Values are published
 * in batches, so a reader may see them slightly behind.
 */
public final class TaskCounters {
  volatile long recordsIn;
  volatile long recordsOut;
  volatile long watermark = Long.MIN_VALUE;
  volatile boolean idle;
  volatile boolean finished;
  volatile long alignmentNanos;

  /** How long the last aligned checkpoint barrier waited for the slowest input channel. */
  public long alignmentNanos() {
    return alignmentNanos;
  }

  /** Records that entered the task (read from splits, or received from channels). */
  public long recordsIn() {
    return recordsIn;
  }

  /** Records written by the sinks of this task. */
  public long recordsOut() {
    return recordsOut;
  }

  /** The task's input watermark. */
  public long watermark() {
    return watermark;
  }

  public boolean idle() {
    return idle;
  }

  public boolean finished() {
    return finished;
  }
}
