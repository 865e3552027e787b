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

  /** The bounds the job's parallelism may move within ({@code parallelism: {min, max}}). */
  record ParallelismBounds(int min, int max) {}

  /** Its parallelism bounds as deployed, or null when unknown (1 up to the key groups). */
  default ParallelismBounds parallelismBounds() {
    return null;
  }

  /** The most tasks its worker pool can ever run (one per slot), or empty when the pool can grow. */
  default java.util.OptionalInt slotLimit() {
    return java.util.OptionalInt.empty();
  }

  /**
   * What waits outside the running job for each source that can tell (by source operator id);
   * empty when none can.
   */
  default java.util.Map<String, SourceBacklogs.Backlog> sourceBacklogs() {
    return java.util.Map.of();
  }

  /**
   * The stages of the job as deployed that would run in another stage's task if that ran at 1, by
   * the heads of both ({@link io.tributary.scheduler.planner.Planner#joinsAtOne}); empty when none.
   */
  default java.util.Map<String, String> joinsAtOne() {
    return java.util.Map.of();
  }

  /** How the autoscaler sizes the job (its spec's {@code autoscaler} block, else not enabled). */
  default io.tributary.scheduler.autoscale.AutoscalerSettings autoscalerSettings() {
    return io.tributary.scheduler.autoscale.AutoscalerSettings.DEFAULTS;
  }
}
