package io.tributary.protocol;

import io.tributary.plan.SourcePlan;

/**
 * Lists the splits of a job's sources, for placement (files of a directory, partitions of a topic,
 * slices of a generator). Any thread.
 */
public interface SplitEnumerator {
  /**
   * The splits of {@code source} run at {@code parallelism}.
   *
   * @throws WorkerException if the source cannot be listed (misconfigured: USER; unreachable:
   *     EXTERNAL)
   */
  SourceSplits splits(SourcePlan source, int parallelism);

  /** Whether a reader of {@code source} can resume split {@code splitId} although it is not listed now. */
  boolean canResume(SourcePlan source, String splitId);

  /**
   * How many records of {@code source} wait beyond {@code positions} (split id to position, as a
   * checkpoint recorded them; a split missing from it counts from where a new reader would start),
   * asked of the external system itself: what lets the control plane see new input while the job
   * holds no worker. Empty when the source cannot tell (files, generators).
   *
   * @throws WorkerException if the source cannot be reached (EXTERNAL) or is misconfigured (USER)
   */
  default java.util.OptionalLong pending(SourcePlan source, java.util.Map<String, String> positions) {
    return java.util.OptionalLong.empty();
  }
}
