package io.tributary.worker.pool;

import io.tributary.connect.SourceSplit;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.state.KeyGroups;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts plans in this process for runtime tests, without a control plane: every task on the
 * in-process worker, key groups by {@link KeyGroups#rangeFor}, splits round robin, no checkpoints.
 * (The control plane's placement does the same and more; these tests exercise the tasks.)
 */
final class TestAttempts {
  private TestAttempts() {}

  static LocalAttempt start(ExecutionPlan plan, InProcessWorkerPool.Options options) {
    return start(plan, options, r -> {});
  }

  static LocalAttempt start(ExecutionPlan plan, InProcessWorkerPool.Options options, WorkerReports reports) {
    AttemptDeployment d = deployment(plan, options, (stage, subtask) -> InProcessWorkerPool.WORKER);
    return LocalAttempt.start(d, InProcessWorkerPool.WORKER, options, reports);
  }

  /** Which worker runs subtask {@code subtask} of stage {@code stage}. */
  interface Workers {
    String of(int stage, int subtask);
  }

  static AttemptDeployment deployment(ExecutionPlan plan, InProcessWorkerPool.Options options, Workers workers) {
    List<TaskDeployment> tasks = new ArrayList<>();
    for (StagePlan stage : plan.stages()) {
      List<String> splits = new ArrayList<>();
      if (stage.operators().get(0) instanceof SourcePlan sp) {
        for (SourceSplit s : options.connectors().source(sp).splits(stage.parallelism())) {
          splits.add(s.id());
        }
      }
      for (int i = 0; i < stage.parallelism(); i++) {
        List<String> mine = new ArrayList<>();
        for (int s = i; s < splits.size(); s += stage.parallelism()) {
          mine.add(splits.get(s));
        }
        tasks.add(new TaskDeployment(stage.id(), i, workers.of(stage.id(), i),
            KeyGroups.rangeFor(plan.maxParallelism(), stage.parallelism(), i), mine, null));
      }
    }
    return new AttemptDeployment(new AttemptId(plan.jobName(), 0), plan, null, List.of(), tasks);
  }

  /** Collects reports, for tests that check them. */
  static final class Collected implements WorkerReports {
    final List<WorkerReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void report(WorkerReport report) {
      reports.add(report);
    }
  }
}
