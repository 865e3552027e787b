package io.tributary.checkpoint;

/**
 * Where tasks report checkpoint progress: the coordinator. Called from task and upload threads.
 */
public interface CheckpointAcks {
  /** The task's part of checkpoint {@code checkpointId} is durable. */
  void acknowledge(long checkpointId, TaskState state);

  /** The task could not take its part of {@code checkpointId}; the checkpoint cannot complete. */
  void decline(long checkpointId, String task, Throwable reason);

  /**
   * The task ended (its input ended and its results were flushed): {@code state} stands for it in
   * every checkpoint after {@link TaskState#lastCheckpoint()}.
   */
  void finished(TaskState state);
}
