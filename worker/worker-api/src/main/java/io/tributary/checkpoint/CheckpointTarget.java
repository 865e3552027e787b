package io.tributary.checkpoint;

/** A running job as its checkpoint coordinator sees it. Implementations are thread-safe. */
public interface CheckpointTarget {
  /** The number of tasks whose states make a complete checkpoint. */
  int taskCount();

  /** Starts checkpoint {@code checkpointId}: sources inject its barrier. */
  void trigger(long checkpointId);

  /**
   * Starts checkpoint {@code checkpointId}; with {@code stopSources} the sources read nothing after
   * its barrier, because the job's run ends at it. The default ignores {@code stopSources}.
   */
  default void trigger(long checkpointId, boolean stopSources) {
    trigger(checkpointId);
  }

  /**
   * Checkpoint {@code metadata} is complete (C9): make the output it covers visible (second phase
   * of contract C10). Runs on the coordinator's thread; an exception fails the job, whose restore
   * commits the same pre-commits again.
   */
  void notifyComplete(CheckpointMetadata metadata);
}
