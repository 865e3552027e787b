package io.tributary.scheduler.observe;

import java.util.List;

/**
 * Receives a job's live output (see {@link JobManager#subscribeOutput}): what was kept when it
 * subscribed, then new records as they are sampled. Called on the control plane's metrics thread,
 * one call at a time; it must not block (hand the records to an asynchronous writer).
 */
public interface OutputListener {
  /** New records, oldest first; never empty. */
  void records(List<OutputRecord> records);

  /**
   * The subscription ended and nothing more comes: the job was deleted, the control plane is
   * closing, or {@link #records} threw.
   */
  default void ended(String reason) {}
}
