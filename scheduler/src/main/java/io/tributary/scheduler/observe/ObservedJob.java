package io.tributary.scheduler.observe;

/** A job as observation sees it: its names, its lifecycle at a glance, and what is observed of it. */
public interface ObservedJob {
  String project();

  String name();

  /** Whether the job was deleted (or its control plane closed). */
  boolean retired();

  /** Its observed state's name ({@code RUNNING}, ...). */
  String stateName();

  /** Automatic restarts after failures since the job was created. */
  long restarts();

  JobMetricsTracker metrics();
}
