package io.tributary.worker.task;

import io.tributary.connectors.ConnectorPolicy;
import io.tributary.connectors.Connectors;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;

/** Creates the connectors of a plan; tests substitute their own sources and sinks. */
public interface ConnectorFactory {
  SourceConnector source(SourcePlan plan);

  SinkConnector sink(SinkPlan plan);

  /**
   * These connectors, with every source split reader passed through {@code wrap} (fault injection,
   * throttling, holding sources open in tests and benchmarks); everything else is forwarded.
   */
  default ConnectorFactory withSourceReaders(java.util.function.UnaryOperator<SplitReader> wrap) {
    ConnectorFactory base = this;
    return new ConnectorFactory() {
      @Override
      public SourceConnector source(SourcePlan plan) {
        SourceConnector delegate = base.source(plan);
        return new SourceConnector() {
          @Override
          public java.util.List<? extends SourceSplit> splits(int parallelism) {
            return delegate.splits(parallelism);
          }

          @Override
          public SplitReader open(SourceSplit split) {
            return wrap.apply(delegate.open(split));
          }

          @Override
          public SplitReader open(SourceSplit split, String position) {
            return wrap.apply(delegate.open(split, position));
          }

          @Override
          public boolean splitsFollowParallelism() {
            return delegate.splitsFollowParallelism();
          }

          @Override
          public SourceSplit splitOf(String id) {
            return delegate.splitOf(id);
          }

          @Override
          public boolean bounded() {
            return delegate.bounded();
          }

          @Override
          public java.util.Optional<io.tributary.connect.SourceBacklog> backlog(
              java.util.Map<String, String> positions) {
            return delegate.backlog(positions);
          }
        };
      }

      @Override
      public SinkConnector sink(SinkPlan plan) {
        return base.sink(plan);
      }
    };
  }

  /** The built-in connectors (file, datagen, nexmark, kafka, stdout, blackhole), unrestricted. */
  static ConnectorFactory standard() {
    return standard(ConnectorPolicy.unrestricted());
  }

  /** The built-in connectors, reaching only what {@code policy} allows (checked as they open). */
  static ConnectorFactory standard(ConnectorPolicy policy) {
    return new ConnectorFactory() {
      @Override
      public SourceConnector source(SourcePlan plan) {
        return Connectors.source(plan, policy);
      }

      @Override
      public SinkConnector sink(SinkPlan plan) {
        return Connectors.sink(plan, policy);
      }
    };
  }
}
