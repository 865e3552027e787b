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
 */
public record Checkpointing(CheckpointAcks acks, ObjectStore store, Executor uploads, long attempt, boolean aligned) {
  /** The object holding operator {@code operatorId}'s timers of subtask {@code subtask} in a checkpoint. */
  public static String timersObject(String job, long checkpointId, String operatorId, int subtask) {
    return job + "/checkpoints/chk-" + checkpointId + "/timers/" + operatorId + "-" + subtask;
  }
}
