package io.tributary.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/**
 * What the control plane tells workers: the calls of {@link WorkerPool} as values, for pools whose
 * workers are elsewhere. Every message names its attempt.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ControlMessage.RecoverSinks.class, name = "recover-sinks"),
    @JsonSubTypes.Type(value = ControlMessage.Deploy.class, name = "deploy"),
    @JsonSubTypes.Type(value = ControlMessage.TriggerCheckpoint.class, name = "trigger-checkpoint"),
    @JsonSubTypes.Type(value = ControlMessage.CheckpointComplete.class, name = "checkpoint-complete"),
    @JsonSubTypes.Type(value = ControlMessage.Cancel.class, name = "cancel"),
    @JsonSubTypes.Type(value = ControlMessage.Release.class, name = "release")})
public sealed interface ControlMessage {
  AttemptId attempt();

  /**
   * Run {@code deployment}'s sink recoveries (and nothing else): sent to one worker, which answers
   * when they are done, before any worker is told to deploy the attempt.
   */
  record RecoverSinks(AttemptDeployment deployment) implements ControlMessage {
    @Override
    public AttemptId attempt() {
      return deployment.attempt();
    }
  }

  /** Run the tasks of {@code deployment} placed on the receiving worker. */
  record Deploy(AttemptDeployment deployment) implements ControlMessage {
    @Override
    public AttemptId attempt() {
      return deployment.attempt();
    }
  }

  /**
   * Source tasks inject the barrier of {@code checkpointId}; with {@code stopSources} they read
   * nothing more after it (the attempt is to end at this checkpoint, see {@link
   * WorkerPool#triggerCheckpoint(AttemptId, long, boolean)}).
   */
  record TriggerCheckpoint(AttemptId attempt, long checkpointId, boolean stopSources) implements ControlMessage {
    public TriggerCheckpoint(AttemptId attempt, long checkpointId) {
      this(attempt, checkpointId, false);
    }
  }

  /** Checkpoint {@code checkpointId} completed: commit {@code committables} (by sink id). */
  record CheckpointComplete(AttemptId attempt, long checkpointId, Map<String, List<String>> committables)
      implements ControlMessage {
    public CheckpointComplete {
      committables = Map.copyOf(committables);
    }
  }

  /** Cancel the attempt's tasks. */
  record Cancel(AttemptId attempt) implements ControlMessage {}

  /** Forget the attempt: cancel what still runs, close its sinks. */
  record Release(AttemptId attempt) implements ControlMessage {}
}
