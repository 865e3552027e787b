package io.tributary.cli;

import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import java.io.IOException;
import java.nio.file.Path;

/** Spec file to execution plan. */
final class Jobs {
  private Jobs() {}

  static ExecutionPlan plan(Path specFile, Integer parallelism) throws IOException {
    return plan(JobSpecs.load(specFile), parallelism);
  }

  static ExecutionPlan plan(JobSpec spec, Integer parallelism) {
    return Planner.plan(spec, parallelism);
  }
}
