package io.tributary.worker.job;

import io.tributary.state.StateBackendFactory;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.task.ConnectorFactory;
import java.util.Map;

/**
 * How a job runs in this process.
 *
 * @param stateBackends keyed state backends by name; the plan names one
 * @param connectors creates sources and sinks
 * @param credits buffers a receiver accepts per channel (contract C2)
 */
public record JobOptions(Map<String, StateBackendFactory> stateBackends, ConnectorFactory connectors, int credits) {
  public JobOptions {
    stateBackends = Map.copyOf(stateBackends);
    if (credits < 1) {
      throw new IllegalArgumentException("credits must be >= 1, got " + credits);
    }
  }

  /** The built-in connectors and the default credit. */
  public static JobOptions of(Map<String, StateBackendFactory> stateBackends) {
    return new JobOptions(stateBackends, ConnectorFactory.standard(), InProcessChannel.DEFAULT_CREDITS);
  }

  public JobOptions withConnectors(ConnectorFactory factory) {
    return new JobOptions(stateBackends, factory, credits);
  }

  public JobOptions withCredits(int n) {
    return new JobOptions(stateBackends, connectors, n);
  }
}
