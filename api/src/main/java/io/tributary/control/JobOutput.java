package io.tributary.control;

import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.StagePlan;
import io.tributary.worker.job.LocalJob;
import io.tributary.worker.task.OutputTap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The output samples of one run of a job, by operator, with its plan: kept after the run ended
 * without holding on to the run's tasks and state.
 */
record JobOutput(ExecutionPlan plan, Map<String, List<OutputTap>> taps) {
  static JobOutput of(LocalJob job) {
    Map<String, List<OutputTap>> taps = new LinkedHashMap<>();
    for (StagePlan stage : job.plan().stages()) {
      for (OperatorPlan op : stage.operators()) {
        taps.put(op.id(), List.copyOf(job.metrics().taps(op.id())));
      }
    }
    return new JobOutput(job.plan(), Map.copyOf(taps));
  }

  /** The taps of operator {@code operatorId}, one per subtask; for null, those of every sink. */
  List<OutputTap> taps(String operatorId) {
    if (operatorId != null) {
      return taps.getOrDefault(operatorId, List.of());
    }
    List<OutputTap> out = new ArrayList<>();
    for (StagePlan stage : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        if (op instanceof SinkPlan) {
          out.addAll(taps.getOrDefault(op.id(), List.of()));
        }
      }
    }
    return out;
  }

  /** The ids of the plan's operators, in plan order. */
  List<String> operatorIds() {
    return plan.stages().stream().flatMap(s -> s.operators().stream()).map(OperatorPlan::id).toList();
  }
}
