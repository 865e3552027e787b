package io.tributary.protocol;

import io.tributary.checkpoint.CheckpointMetadata;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Worker capacity the control plane runs attempts on: in this process, in local worker processes,
 * or wherever workers register from. The control plane knows workers only through this interface.
 *
 * <p>The life of an attempt: {@link #acquire} slots, place the tasks on them, {@link #deploy};
 * then {@link #triggerCheckpoint} and {@link #notifyCheckpointComplete} while it runs; {@link
 * #cancel} to stop it early; {@link #release} once it is over, whichever way it ended. Reports
 * arrive at the {@link WorkerReports} given to {@code deploy} until {@code release}. A control plane
 * that takes over from another one finds the attempts it left running with {@link #running} and
 * follows them with {@link #adopt}; one that stops leading lets go of its attempts with {@link
 * #detach}.
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
   * As {@link #acquire(AttemptId, int)}, telling {@code waiting} once, on the calling thread, why
   * when the slots are not free at once and the pool waits for them (for example {@code "waiting up
   * to 60 s for 4 free slots: ..."}).
   */
  default List<WorkerSlots> acquire(AttemptId attempt, int slots, java.util.function.Consumer<String> waiting) {
    return acquire(attempt, slots);
  }

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
   * Like {@link #triggerCheckpoint(AttemptId, long)}; with {@code stopSources} the source tasks read
   * nothing more after the barrier, because the attempt is to end once the checkpoint completes (a
   * rescale): the tasks downstream then take no input after it either, their state stays exactly
   * the checkpoint's, and a worker can hand it to the next attempt's task of the same key groups
   * without restoring it. The sources read again if the attempt is not cancelled within a minute.
   * The default ignores {@code stopSources}.
   */
  default void triggerCheckpoint(AttemptId attempt, long checkpointId, boolean stopSources) {
    triggerCheckpoint(attempt, checkpointId);
  }

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

  /**
   * The attempt of job {@code job} that this pool's workers still run without this pool having
   * deployed it (see {@link RunningAttempt}), once every worker it has tasks on has registered and
   * said it still runs them; waits up to {@code timeout} for them. Empty when there is none, or not
   * every worker came back in time: the caller then starts a new attempt, and the pool has the
   * workers drop the old one. Pools whose workers cannot outlive their control plane have none.
   */
  default Optional<RunningAttempt> running(String job, Duration timeout)
      throws InterruptedException {
    return Optional.empty();
  }

  /**
   * Follows an attempt that {@link #running} found, as if this pool had deployed it: its slots stay
   * taken, and its reports go to {@code reports} from now on — first the ends and final states of
   * tasks that ended before (its workers tell them again as they register).
   *
   * @throws WorkerException (retryable) if the attempt is no longer running here
   */
  default void adopt(AttemptId attempt, WorkerReports reports) {
    throw new WorkerException(new Failure(Failure.Domain.INTERNAL, true, "this worker pool cannot follow attempt "
        + attempt + ", which an earlier control plane deployed"), null);
  }

  /**
   * Stops following the attempt without stopping it (this control plane stops leading, or shuts
   * down): its workers keep it running for a while, so that the next control plane can find it with
   * {@link #running} and go on. Pools whose workers cannot outlive their control plane
   * {@linkplain #release release} it instead, the default.
   */
  default void detach(AttemptId attempt) {
    release(attempt);
  }

  /**
   * The most slots this pool will ever have, when that is known: a pool whose owner starts all its
   * workers itself (local worker processes). Empty, the default, when workers may come (external
   * workers, pods made on demand) or none are needed (tasks in this process).
   */
  default java.util.OptionalInt slotLimit() {
    return java.util.OptionalInt.empty();
  }

  /** Releases every attempt and stops the pool. */
  @Override
  void close();
}
