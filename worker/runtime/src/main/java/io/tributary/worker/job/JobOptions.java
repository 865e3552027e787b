package io.tributary.worker.job;

import io.tributary.state.StateBackendFactory;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.task.Checkpointing;
import io.tributary.worker.task.ConnectorFactory;
import java.util.Map;

/**
 * How a job runs in this process.
 *
 * @param stateBackends keyed state backends by name; the plan names one
 * @param connectors creates sources and sinks
 * @param credits buffers a receiver accepts per channel (contract C2)
 * @param checkpointing how tasks take part in checkpoints, or null for none
 */
public record JobOptions(Map<String, StateBackendFactory> stateBackends, ConnectorFactory connectors, int credits,
    Checkpointing checkpointing) {
  public JobOptions {
    stateBackends = Map.copyOf(stateBackends);
    if (credits < 1) {
      throw new IllegalArgumentException("credits must be >= 1, got " + credits);
    }
  }

  /** The built-in connectors and the default credit. */
  public static JobOptions of(Map<String, StateBackendFactory> stateBackends) {
    return new JobOptions(stateBackends, ConnectorFactory.standard(), InProcessChannel.DEFAULT_CREDITS, null);
  }

  public JobOptions withConnectors(ConnectorFactory factory) {
    return new JobOptions(stateBackends, factory, credits, checkpointing);
  }

  public JobOptions withCredits(int n) {
    return new JobOptions(stateBackends, connectors, n, checkpointing);
  }

  public JobOptions withCheckpointing(Checkpointing c) {
    return new JobOptions(stateBackends, connectors, credits, c);
  }
}
