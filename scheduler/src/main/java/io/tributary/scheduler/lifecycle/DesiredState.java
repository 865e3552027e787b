package io.tributary.scheduler.lifecycle;

/**
 * What the user wants of a job: that it runs, or that it is stopped. The control plane reconciles
 * the {@link ObservedState} towards it; a job that FAILED or FINISHED stays so until the user acts,
 * whatever it wants.
 */
public enum DesiredState {
  RUNNING,
  STOPPED
}
