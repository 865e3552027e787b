package io.tributary.worker.operator;

/**
 * Counters of one operator instance. Written by the task thread only; read by reporters from other
 * threads (values may lag slightly).
 */
public final class OperatorMetrics {
  private volatile long lateDropped;
  private volatile long lateSideOutput;
  private volatile long malformed;
  private volatile long refired;
  private volatile long recordsIn;
  private volatile long recordsOut;
  private volatile long watermark = Long.MIN_VALUE;

  /** A record beyond allowed lateness with no late output: dropped. */
  public void incLateDropped() {
    lateDropped++;
  }

  /** A record beyond allowed lateness sent to the late output. */
  public void incLateSideOutput() {
    lateSideOutput++;
  }

  /** A malformed input record (counted, and sent to a dead-letter output if declared). */
  public void incMalformed() {
    malformed++;
  }

  /** A window result re-fired because of a late record within allowed lateness. */
  public void incRefired() {
    refired++;
  }

  public long lateDropped() {
    return lateDropped;
  }

  public long lateSideOutput() {
    return lateSideOutput;
  }

  public long malformed() {
    return malformed;
  }

  public long refired() {
    return refired;
  }

  /**
   * Publishes the operator's progress; called by the runtime on the task thread, in batches (every
   * 1024 input records and whenever the task waits), not by operators.
   *
   * @param recordsIn records the operator was given
   * @param recordsOut records it emitted to its main output (a sink: records it wrote)
   * @param watermark the last watermark it applied ({@code Long.MIN_VALUE}: none yet)
   */
  public void publish(long recordsIn, long recordsOut, long watermark) {
    this.recordsIn = recordsIn;
    this.recordsOut = recordsOut;
    this.watermark = watermark;
  }

  /** Records the operator was given, as last published. */
  public long recordsIn() {
    return recordsIn;
  }

  /** Records it emitted to its main output (a sink: records it wrote), as last published. */
  public long recordsOut() {
    return recordsOut;
  }

  /** The last watermark it applied, as last published ({@code Long.MIN_VALUE}: none yet). */
  public long watermark() {
    return watermark;
  }
}
