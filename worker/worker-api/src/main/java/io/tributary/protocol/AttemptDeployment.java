package io.tributary.protocol;

import io.tributary.plan.ExecutionPlan;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything workers need to run one attempt of a job: the plan, how tasks take part in checkpoints,
 * the sinks' recoveries, and every task with the worker that runs it. Each worker runs the tasks
 * placed on it and learns from the others where its exchanges lead.
 *
 * @param attempt the job and attempt
 * @param plan the job's execution plan
 * @param checkpoints how tasks take part in checkpoints, or null when the attempt takes none (sinks
 *     then commit when their input ends)
 * @param sinkRecoveries one per sink when the attempt checkpoints, run before any task starts
 * @param tasks every subtask of every stage
 * @param network how the workers reach each other, or null when every task runs on one worker
 */
public record AttemptDeployment(AttemptId attempt, ExecutionPlan plan, CheckpointSettings checkpoints,
    List<SinkRecovery> sinkRecoveries, List<TaskDeployment> tasks, Network network) {
  public AttemptDeployment {
    Objects.requireNonNull(attempt, "attempt");
    Objects.requireNonNull(plan, "plan");
    sinkRecoveries = List.copyOf(sinkRecoveries);
    tasks = List.copyOf(tasks);
  }

  /** A deployment whose tasks all run on one worker: no network. */
  public AttemptDeployment(AttemptId attempt, ExecutionPlan plan, CheckpointSettings checkpoints,
      List<SinkRecovery> sinkRecoveries, List<TaskDeployment> tasks) {
    this(attempt, plan, checkpoints, sinkRecoveries, tasks, null);
  }

  /**
   * How the attempt's workers reach each other's data ports.
   *
   * @param dataToken the attempt's data-plane credential: a receiving worker accepts a connection
   *     only with it
   * @param dataAddresses worker id to {@code host:port} of its data port
   */
  public record Network(String dataToken, Map<String, String> dataAddresses) {
    public Network {
      Objects.requireNonNull(dataToken, "dataToken");
      dataAddresses = Map.copyOf(dataAddresses);
    }
  }

  /** This deployment with {@code network}. */
  public AttemptDeployment withNetwork(Network network) {
    return new AttemptDeployment(attempt, plan, checkpoints, sinkRecoveries, tasks, network);
  }

  /** This deployment without its sink recoveries (for the workers that do not run them). */
  public AttemptDeployment withoutSinkRecoveries() {
    return new AttemptDeployment(attempt, plan, checkpoints, List.of(), tasks, network);
  }

  /**
   * How tasks take part in checkpoints.
   *
   * @param aligned whether tasks with several inputs align barriers (exactly-once state); without
   *     alignment no input is held, and records after a barrier may reach state before the snapshot
   *     (at-least-once)
   * @param unaligned with {@code aligned}: whether barriers overtake buffered records, the records
   *     they overtake being logged into the checkpoint
   * @param alignmentTimeoutMillis with {@code unaligned}: how long a checkpoint aligns at a task
   *     before it turns unaligned there; 0 for unaligned from the start
   */
  public record CheckpointSettings(boolean aligned, boolean unaligned, long alignmentTimeoutMillis) {
    public CheckpointSettings(boolean aligned) {
      this(aligned, false, 0);
    }
  }

  /** The deployment of subtask {@code subtask} of stage {@code stageId}. */
  public TaskDeployment task(int stageId, int subtask) {
    for (TaskDeployment t : tasks) {
      if (t.stageId() == stageId && t.subtask() == subtask) {
        return t;
      }
    }
    throw new IllegalArgumentException("attempt " + attempt + " has no task " + TaskDeployment.taskId(stageId, subtask));
  }

  /** The tasks placed on {@code worker}. */
  public List<TaskDeployment> tasksOn(String worker) {
    return tasks.stream().filter(t -> t.worker().equals(worker)).toList();
  }
}
