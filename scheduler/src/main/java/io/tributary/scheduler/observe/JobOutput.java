package io.tributary.scheduler.observe;

import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The output samples of one attempt of a job, by operator (one buffer per subtask), with its plan:
 * kept after the attempt ended.
 */
public record JobOutput(AttemptId attempt, ExecutionPlan plan, Map<String, List<SampleBuffer>> taps) {
  /** Empty buffers for every operator subtask of {@code plan}. */
  static JobOutput of(AttemptId attempt, ExecutionPlan plan) {
    Map<String, List<SampleBuffer>> taps = new LinkedHashMap<>();
    for (StagePlan stage : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        List<SampleBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < stage.parallelism(); i++) {
          buffers.add(new SampleBuffer(op.id(), i));
        }
        taps.put(op.id(), List.copyOf(buffers));
      }
    }
    return new JobOutput(attempt, plan, Map.copyOf(taps));
  }

  /** The buffer of subtask {@code subtask} of {@code operatorId}, or null. */
  SampleBuffer buffer(String operatorId, int subtask) {
    List<SampleBuffer> list = taps.get(operatorId);
    return list == null || subtask < 0 || subtask >= list.size() ? null : list.get(subtask);
  }

  /** The buffers of operator {@code operatorId}, one per subtask; for null, those of every sink. */
  public List<SampleBuffer> taps(String operatorId) {
    if (operatorId != null) {
      return taps.getOrDefault(operatorId, List.of());
    }
    List<SampleBuffer> out = new ArrayList<>();
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
  public List<String> operatorIds() {
    return plan.stages().stream().flatMap(s -> s.operators().stream()).map(OperatorPlan::id).toList();
  }
}
