package io.tributary.scheduler.observe;

import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.scheduler.autoscale.JobSample;
import io.tributary.scheduler.autoscale.StageSample;
import io.tributary.scheduler.planner.Planner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What the autoscaler sees of a running job, from its plan and its operators' rates: per stage its
 * parallelism and bounds (1 to 1 for a stage that begins with a global window, aggregate or top-N),
 * its busy and backpressured fractions (those of its busiest subtask, so a skewed stage is sized by
 * its hottest key groups), the records its first operator is given and its last one emits. A source
 * whose backlog the control plane sees (Kafka: end offsets minus the latest checkpoint's positions,
 * {@link SourceBacklogs}) reports it, and its growth as the rate records are written to it minus the
 * rate it reads; the target of the others is the rate they read, or for a throttled generator its
 * configured rate.
 */
final class StageSamples {
  private StageSamples() {}

  /**
   * @param bounds the job's parallelism bounds, or null for 1 up to the key groups
   * @param backlogs what waits for each source that can tell, by source operator id
   * @param joinsAtOne the stages that would run in another's task if that ran at 1, by the heads of
   *     both ({@link ObservedJob#joinsAtOne}); a head that begins no stage of {@code plan} is left out
   * @return null when the rates do not cover every stage of the plan (an attempt just started)
   */
  static JobSample of(ExecutionPlan plan, List<OperatorMetricsView> operators, ObservedJob.ParallelismBounds bounds,
      Map<String, SourceBacklogs.Backlog> backlogs, Map<String, String> joinsAtOne) {
    Map<String, OperatorMetricsView> byId = new HashMap<>();
    operators.forEach(o -> byId.put(o.operatorId(), o));
    int keyGroups = plan.maxParallelism();
    List<StageSample> stages = new ArrayList<>();
    for (StagePlan s : plan.stages()) {
      List<OperatorPlan> ops = s.operators();
      OperatorMetricsView first = byId.get(ops.get(0).id());
      OperatorMetricsView last = byId.get(ops.get(ops.size() - 1).id());
      if (first == null || last == null) {
        return null;
      }
      int busyMs = 0;
      int backpressuredMs = 0;
      for (OperatorPlan op : ops) {
        OperatorMetricsView v = byId.get(op.id());
        if (v != null) {
          busyMs = Math.max(busyMs, v.busyTimeMsPerSecond());
          backpressuredMs = Math.max(backpressuredMs, v.backpressuredTimeMsPerSecond());
        }
      }
      int max = bounds == null ? keyGroups : Math.max(1, bounds.max());
      String maxReason = null;
      SourceBacklogs.Backlog waiting = ops.get(0) instanceof SourcePlan src ? backlogs.get(src.id()) : null;
      if (Planner.runsAtOneOnly(s)) {
        // it cannot be rescaled at all: a recommendation above 1 would only be refused, and with it
        // the rest of its decision
        max = 1;
        maxReason = "a window, aggregate or top-N without keys runs at 1";
      } else if (waiting != null && waiting.splits() > 0 && waiting.splits() < max) {
        max = waiting.splits(); // a subtask without a split (partition) reads nothing
        maxReason = "the source has " + waiting.splits() + (waiting.splits() == 1 ? " partition" : " partitions");
      }
      int min = bounds == null ? 1 : Math.max(1, Math.min(bounds.min(), max));
      double in = rate(first.recordsInPerSecond());
      // the backlog grows at what is written minus what the source reads
      double growth = waiting == null || waiting.writtenPerSecond().isEmpty() ? 0
          : waiting.writtenPerSecond().getAsDouble() - in;
      stages.add(new StageSample(s.id(), s.name(), s.parallelism(), min, Math.max(min, max), keyGroups,
          fraction(busyMs), fraction(backpressuredMs), in, rate(last.recordsOutPerSecond()), growth,
          waiting == null ? 0 : waiting.records(), configuredRate(ops.get(0)), maxReason));
    }
    Set<JobSample.Edge> edges = new LinkedHashSet<>();
    for (EdgePlan e : plan.edges()) {
      edges.add(new JobSample.Edge(e.fromStage(), e.toStage()));
    }
    Map<String, Integer> byHead = new HashMap<>();
    plan.stages().forEach(s -> byHead.put(Planner.head(s), s.id()));
    Map<Integer, Integer> joins = new HashMap<>();
    joinsAtOne.forEach((stage, into) -> {
      if (byHead.containsKey(stage) && byHead.containsKey(into)) {
        joins.put(byHead.get(stage), byHead.get(into));
      }
    });
    return new JobSample(stages, new ArrayList<>(edges), joins);
  }

  /**
   * A throttled generator's configured rate (over all its subtasks): the rate it would produce if
   * nothing held it back, which is what the job must keep up with.
   */
  private static OptionalDouble configuredRate(OperatorPlan op) {
    return op instanceof SourcePlan src && src.maxRecordsPerSecond() > 0 && GENERATORS.contains(src.type())
        ? OptionalDouble.of(src.maxRecordsPerSecond()) : OptionalDouble.empty();
  }

  private static final Set<String> GENERATORS = Set.of("datagen", "nexmark");

  private static double fraction(int msPerSecond) {
    return Math.max(0, Math.min(1000, msPerSecond)) / 1000.0;
  }

  private static double rate(double perSecond) {
    return Double.isFinite(perSecond) && perSecond > 0 ? perSecond : 0;
  }
}
