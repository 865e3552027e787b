package io.tributary.worker.task;

import io.tributary.connect.Connectors;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;

/** Creates the connectors of a plan; tests substitute their own sources and sinks. */
public interface ConnectorFactory {
  SourceConnector source(SourcePlan plan);

  SinkConnector sink(SinkPlan plan);

  /** The built-in connectors (file, datagen, nexmark, kafka, stdout, blackhole). */
  static ConnectorFactory standard() {
    return new ConnectorFactory() {
      @Override
      public SourceConnector source(SourcePlan plan) {
        return Connectors.source(plan);
      }

      @Override
      public SinkConnector sink(SinkPlan plan) {
        return Connectors.sink(plan);
      }
    };
  }
}
