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
   * What of {@code source} waits beyond {@code positions} (split id to position, as a checkpoint
   * recorded them; a split missing from it counts from where a new reader would start), and how
   * much was ever written, asked of the external system itself: what lets the control plane see new
   * input while the job holds no worker, and a job's input rate and backlog. Empty when the source
   * cannot tell (files, generators).
   *
   * @throws WorkerException if the source cannot be reached (EXTERNAL) or is misconfigured (USER)
   */
  default java.util.Optional<io.tributary.connect.SourceBacklog> backlog(SourcePlan source,
      java.util.Map<String, String> positions) {
    return java.util.Optional.empty();
  }
}
