package io.tributary.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.tributary.checkpoint.TaskState;
import java.util.List;

/**
 * What workers tell the control plane about the tasks of an attempt. Every report names its
 * attempt; the control plane ignores reports of an attempt that is not the job's current one.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = WorkerReport.CheckpointAck.class, name = "checkpoint-ack"),
    @JsonSubTypes.Type(value = WorkerReport.CheckpointDeclined.class, name = "checkpoint-declined"),
    @JsonSubTypes.Type(value = WorkerReport.FinalState.class, name = "final-state"),
    @JsonSubTypes.Type(value = WorkerReport.TaskEnded.class, name = "task-ended"),
    @JsonSubTypes.Type(value = WorkerReport.Metrics.class, name = "metrics"),
    @JsonSubTypes.Type(value = WorkerReport.Output.class, name = "output")})
public sealed interface WorkerReport {
  AttemptId attempt();

  /** A task's part of checkpoint {@code checkpointId} is durable; {@code state} holds its handles. */
  record CheckpointAck(AttemptId attempt, long checkpointId, TaskState state) implements WorkerReport {}

  /** A task could not take its part of {@code checkpointId}; the checkpoint cannot complete. */
  record CheckpointDeclined(AttemptId attempt, long checkpointId, String task, String reason)
      implements WorkerReport {}

  /**
   * A task's input ended and its results were flushed: {@code state} stands for it in every
   * checkpoint after {@link TaskState#lastCheckpoint()}.
   */
  record FinalState(AttemptId attempt, TaskState state) implements WorkerReport {}

  /**
   * A task ended. Sent once per task, after its last {@link Metrics} and {@link Output}.
   *
   * @param failure why, for {@link Outcome#FAILED}; else null
   */
  record TaskEnded(AttemptId attempt, String taskId, String taskName, Outcome outcome, Failure failure)
      implements WorkerReport {
    public enum Outcome { FINISHED, FAILED, CANCELLED }
  }

  /** The counters of the attempt's tasks on one worker (about once a second, and when a task ends). */
  record Metrics(AttemptId attempt, String worker, List<TaskMetrics> tasks) implements WorkerReport {
    public Metrics {
      tasks = List.copyOf(tasks);
    }
  }

  /** Records one operator subtask's output sample took since the last report of it. */
  record Output(AttemptId attempt, String operatorId, int subtask, List<SampledRecord> records)
      implements WorkerReport {
    public Output {
      records = List.copyOf(records);
    }
  }
}
