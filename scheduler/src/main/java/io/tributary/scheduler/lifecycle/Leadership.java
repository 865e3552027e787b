package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.metadata.LeaseLostException;
import java.util.Optional;

/**
 * Whether this control-plane replica runs the jobs now, and the fencing epoch it writes with.
 *
 * <p>Of several replicas on one metadata store, one at a time leads: it runs the reconcile loop,
 * the job masters and checkpoint coordination. Every write that decides a job's fate — a run's
 * attempt, its observed status, a checkpoint pointer — is stamped with {@link #epoch()} and
 * refused where a newer epoch is already stamped (contract C9), so a leader that was paused or cut
 * off past its lease can never overwrite its successor's decisions.
 */
public interface Leadership {
  /** One process alone on its store: always leading, epoch 0 (nothing to fence). */
  Leadership ALONE = new Leadership() {
    @Override
    public long epoch() {
      return 0;
    }

    @Override
    public boolean leading() {
      return true;
    }

    @Override
    public Optional<String> leaderUrl() {
      return Optional.empty();
    }
  };

  /**
   * The epoch of this replica's tenure, if it leads at this instant.
   *
   * @throws LeaseLostException if it does not (any more)
   */
  long epoch();

  /** Whether this replica leads at this instant. */
  boolean leading();

  /** The URL the current leader serves its API on, if another replica leads and said where. */
  Optional<String> leaderUrl();
}
