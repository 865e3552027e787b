package io.tributary.protocol;

import java.util.Objects;

/**
 * An attempt that workers still run although the control plane asking about it never deployed it: a
 * control plane before it did (a replica that led before, or this server before a restart), and its
 * workers kept the attempt running while they found the new one (see {@link WorkerPool#running}).
 *
 * @param deployment the attempt as it was deployed, with its network
 * @param lastCheckpointId the largest checkpoint id any of its source tasks was told to take; a new
 *     coordinator numbers its checkpoints after it (barrier ids only grow)
 */
public record RunningAttempt(AttemptDeployment deployment, long lastCheckpointId) {
  public RunningAttempt {
    Objects.requireNonNull(deployment, "deployment");
  }

  public AttemptId attempt() {
    return deployment.attempt();
  }
}
