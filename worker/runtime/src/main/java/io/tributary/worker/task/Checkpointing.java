package io.tributary.worker.task;

import io.tributary.checkpoint.CheckpointAcks;
import io.tributary.state.store.ObjectStore;
import java.util.concurrent.Executor;

/**
 * How an attempt's tasks take part in checkpoints.
 *
 * @param acks where tasks report their states
 * @param store where task-owned checkpoint objects (serialized timers) are written, and read back on
 *     restore
 * @param uploads runs those writes off the task threads
 * @param attempt the attempt's number, larger than that of every earlier attempt of the job (sink
 *     writers of different attempts never share file names or transactional ids)
 * @param aligned whether tasks with several inputs align barriers (exactly-once state); without
 *     alignment no input is held, and records after a barrier may reach state before the snapshot
 *     (at-least-once)
 * @param unaligned whether barriers overtake buffered records (with {@code aligned}): a task
 *     snapshots at the first barrier of a checkpoint, forwards it with priority, and logs the records
 *     that were in flight before the barrier on each channel into the checkpoint (see {@link InFlightLog})
 * @param alignmentTimeoutNanos with {@code unaligned}: how long a checkpoint aligns before it turns
 *     unaligned at a task; {@link #NO_TIMEOUT} to be unaligned from the start
 */
public record Checkpointing(CheckpointAcks acks, ObjectStore store, Executor uploads, long attempt, boolean aligned,
    boolean unaligned, long alignmentTimeoutNanos) {
  /** No alignment timeout: unaligned checkpoints are unaligned from the start. */
  public static final long NO_TIMEOUT = -1;

  public Checkpointing(CheckpointAcks acks, ObjectStore store, Executor uploads, long attempt, boolean aligned) {
    this(acks, store, uploads, attempt, aligned, false, NO_TIMEOUT);
  }

  /** Whether a task sends a barrier it emits with priority before any alignment happened. */
  boolean unalignedFromStart() {
    return aligned && unaligned && alignmentTimeoutNanos == NO_TIMEOUT;
  }

  /** The object holding the records subtask {@code subtask} of stage {@code stage} had in flight at a checkpoint. */
  public static String inFlightObject(String job, long checkpointId, int stage, int subtask) {
    return job + "/checkpoints/chk-" + checkpointId + "/in-flight/" + stage + "-" + subtask;
  }

  /** The object holding operator {@code operatorId}'s timers of subtask {@code subtask} in a checkpoint. */
  public static String timersObject(String job, long checkpointId, String operatorId, int subtask) {
    return job + "/checkpoints/chk-" + checkpointId + "/timers/" + operatorId + "-" + subtask;
  }
}
