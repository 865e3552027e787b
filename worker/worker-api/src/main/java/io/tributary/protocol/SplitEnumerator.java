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
}
