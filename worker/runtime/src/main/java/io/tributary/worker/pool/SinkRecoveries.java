package io.tributary.worker.pool;

import io.tributary.connect.SinkConnector;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.SinkRecovery;
import io.tributary.worker.task.ConnectorFactory;

/**
 * Runs an attempt's sink recoveries on their own (contract C10): on the one worker that does them,
 * before any worker opens a writer of the attempt. Each recovered connector is closed again.
 */
public final class SinkRecoveries {
  private SinkRecoveries() {}

  /**
   * Recovers every sink of {@code deployment} that has a {@link SinkRecovery}.
   *
   * @throws RuntimeException what a recovery threw (classify it with {@link Failures})
   */
  public static void run(AttemptDeployment deployment, ConnectorFactory connectors) {
    for (SinkRecovery r : deployment.sinkRecoveries()) {
      SinkConnector sink = connectors.sink(sinkPlan(deployment, r.sinkId()));
      try {
        sink.recover(r.committables(), r.previousMaxParallelism(), deployment.attempt().attempt());
      } finally {
        sink.close();
      }
    }
  }

  private static SinkPlan sinkPlan(AttemptDeployment d, String id) {
    for (StagePlan s : d.plan().stages()) {
      for (OperatorPlan op : s.operators()) {
        if (op instanceof SinkPlan p && p.id().equals(id)) {
          return p;
        }
      }
    }
    throw new IllegalArgumentException("the plan of " + d.attempt() + " has no sink '" + id + "'");
  }
}
