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
}
