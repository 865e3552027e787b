package io.tributary.protocol;

import io.tributary.checkpoint.CheckpointMetadata;
import java.util.List;

/**
 * Worker capacity the control plane runs attempts on: in this process, in local worker processes,
 * or wherever workers register from. The control plane knows workers only through this interface.
 *
 * <p>The life of an attempt: {@link #acquire} slots, place the tasks on them, {@link #deploy};
 * then {@link #triggerCheckpoint} and {@link #notifyCheckpointComplete} while it runs; {@link
 * #cancel} to stop it early; {@link #release} once it is over, whichever way it ended. Reports
 * arrive at the {@link WorkerReports} given to {@code deploy} until {@code release}.
 *
 * <p>Implementations are thread-safe. Calls naming an attempt the pool does not know (released, or
 * never deployed) do nothing.
 */
public interface WorkerPool extends AutoCloseable {
  /**
   * Reserves {@code slots} slots for {@code attempt}: one per task.
   *
   * @return the workers whose slots the attempt may use, together at least {@code slots}
   * @throws WorkerException (retryable) if the pool has not enough free slots
   */
  List<WorkerSlots> acquire(AttemptId attempt, int slots);

  /**
   * Starts the attempt: runs the sinks' recoveries, then every task on its worker. Reports go to
   * {@code reports} from any thread.
   *
   * @throws WorkerException if the attempt cannot start (the tasks started so far are cancelled)
   */
  void deploy(AttemptDeployment deployment, WorkerReports reports);

  /** Source tasks of the attempt inject the barrier of {@code checkpointId}; the others align on it. */
  void triggerCheckpoint(AttemptId attempt, long checkpointId);

  /**
   * Checkpoint {@code checkpoint} of the attempt is complete (contract C9): the sinks commit what it
   * covers (second phase of contract C10), each subtask's pre-commits where that subtask runs (its
   * writer holds the open transaction), those of a subtask whose worker is gone anywhere else.
   * Idempotent; returns once committed.
   *
   * @param checkpoint the completed checkpoint; its tasks' states carry the sinks' pre-commits
   * @throws WorkerException if a commit failed: the run restarts, and the restore commits again
   */
  void notifyCheckpointComplete(AttemptId attempt, CheckpointMetadata checkpoint);

  /** Cancels every task of the attempt that still runs; each reports {@code TaskEnded}. */
  void cancel(AttemptId attempt);

  /**
   * Frees the attempt's slots and whatever its sinks kept open. Cancels tasks that still run. No
   * report of the attempt is delivered after it returns.
   */
  void release(AttemptId attempt);

  /** Releases every attempt and stops the pool. */
  @Override
  void close();
}
