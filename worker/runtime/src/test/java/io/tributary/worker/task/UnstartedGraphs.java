package io.tributary.worker.task;

import io.tributary.connect.SinkConnector;
import io.tributary.plan.SinkPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.state.heap.HeapStateBackendFactory;
import java.util.Map;

/** Task graphs built on worker {@code w} and not started, for tests of how they are wired. */
final class UnstartedGraphs {
  private UnstartedGraphs() {}

  /** The tasks of {@code deployment} placed on worker {@code w}, on heap state, into blackhole {@code sink}. */
  static TaskGraph build(AttemptDeployment deployment, SinkPlan sink) {
    SinkConnector blackhole = ConnectorFactory.standard().sink(sink);
    return TaskGraph.build(deployment, "w", new TaskGraph.Environment(
        Map.of("heap", new HeapStateBackendFactory()), ConnectorFactory.standard(), Map.of(sink.id(), blackhole), 2,
        null, new StreamTask.TaskListener() {
          @Override
          public void finished(StreamTask task) {}

          @Override
          public void failed(StreamTask task, Throwable error) {}
        }));
  }
}
