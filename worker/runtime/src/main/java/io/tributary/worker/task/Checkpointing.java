package io.tributary.worker.task;

import io.tributary.checkpoint.CheckpointAcks;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.state.store.ObjectStore;
import java.util.concurrent.Executor;

/**
 * How a job's tasks take part in checkpoints.
 *
 * @param acks where tasks report their states (the coordinator)
 * @param store where task-owned checkpoint objects (serialized timers) are written
 * @param uploads runs those writes off the task threads
 * @param restore the checkpoint or savepoint to start from, or null for an empty start
 * @param attempt this run's attempt number, larger than that of every earlier run of the job (sink
 *     writers of different attempts never share file names or transactional ids)
 * @param previousMaxParallelism the largest parallelism earlier attempts may have run any sink at,
 *     so sinks can clean up what those attempts left pending
 * @param aligned whether tasks with several inputs align barriers (exactly-once state); without
 *     alignment no input is held, and records after a barrier may reach state before the snapshot
 *     (at-least-once)
 */
public record Checkpointing(CheckpointAcks acks, ObjectStore store, Executor uploads, CheckpointMetadata restore,
    long attempt, int previousMaxParallelism, boolean aligned) {

  /** With aligned barriers. */
  public Checkpointing(CheckpointAcks acks, ObjectStore store, Executor uploads, CheckpointMetadata restore,
      long attempt, int previousMaxParallelism) {
    this(acks, store, uploads, restore, attempt, previousMaxParallelism, true);
  }

  /** The object holding operator {@code operatorId}'s timers of subtask {@code subtask} in a checkpoint. */
  public static String timersObject(String job, long checkpointId, String operatorId, int subtask) {
    return job + "/checkpoints/chk-" + checkpointId + "/timers/" + operatorId + "-" + subtask;
  }
}
