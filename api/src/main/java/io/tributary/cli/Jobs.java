package io.tributary.cli;

import io.tributary.plan.ExecutionPlan;
import io.tributary.planner.Planner;
import io.tributary.spec.JobSpec;
import io.tributary.spec.JobSpecs;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.heap.HeapStateBackendFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Spec file to execution plan, and the state backends an in-process run offers. */
final class Jobs {
  private Jobs() {}

  static ExecutionPlan plan(Path specFile, Integer parallelism) throws IOException {
    return plan(JobSpecs.load(specFile), parallelism);
  }

  static ExecutionPlan plan(JobSpec spec, Integer parallelism) {
    return Planner.plan(spec, parallelism);
  }

  static Map<String, StateBackendFactory> stateBackends() {
    HeapStateBackendFactory heap = new HeapStateBackendFactory();
    return Map.of(heap.name(), heap);
  }
}
