package io.tributary.scheduler.planner;

import io.tributary.expr.AggregateCall;
import io.tributary.expr.Expressions;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.EventTimePlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.plan.JoinPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.TopNPlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.scheduler.spec.EventTimeSpec;
import io.tributary.scheduler.spec.JoinSpec;
import io.tributary.scheduler.spec.OperatorSpec;
import io.tributary.scheduler.spec.SinkSpec;
import io.tributary.scheduler.spec.SourceSpec;
import io.tributary.scheduler.spec.TopNSpec;
import io.tributary.scheduler.spec.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Translates single spec nodes of a valid spec into plan operators. */
final class OperatorPlans {
  private OperatorPlans() {}

  static SourcePlan source(SourceSpec s) {
    EventTimeSpec et = s.eventTime();
    EventTimePlan eventTime = et == null ? null
        : new EventTimePlan(et.field(), et.maxOutOfOrdernessMillis(), et.idleTimeoutMillis());
    double rate = s.maxRecordsPerSecond() == null ? 0 : s.maxRecordsPerSecond();
    return new SourcePlan(s.id(), s.type(), s.format(), eventTime, rate, s.deadLetterOutput(), s.properties());
  }

  /** @param upsertKey when the sink reads an upsert stream, its key; else null */
  static SinkPlan sink(SinkSpec s, List<String> upsertKey) {
    return new SinkPlan(s.id(), s.type(), s.format(), s.properties(), upsertKey);
  }

  /**
   * A join; a window aggregate for an operator with a window, a group aggregate for one with an
   * aggregate and no window; else a transform (possibly a bare repartition or union).
   */
  static OperatorPlan operator(OperatorSpec op) {
    return operator(op, null);
  }

  /**
   * {@link #operator(OperatorSpec)} reading an upsert stream keyed by {@code inputKey} (null: an
   * append-only input), which only an aggregate without a window may.
   */
  static OperatorPlan operator(OperatorSpec op, List<String> inputKey) {
    if (op.join() != null) {
      return join(op.id(), op.join(), op.filter(), op.select());
    }
    if (op.topN() != null) {
      TopNSpec t = op.topN();
      List<TopNPlan.SortKey> order = t.orderBy().stream()
          .map(k -> new TopNPlan.SortKey(k.field(), k.desc(), "first".equals(k.nulls()))).toList();
      return new TopNPlan(op.id(), t.partitionBy(), order, t.limit(), t.rankField());
    }
    List<String> keys = op.keyBy() == null ? List.of() : op.keyBy();
    if (op.aggregate() != null && op.window() == null) {
      return new GroupAggregatePlan(op.id(), keys, aggregates(op.aggregate()), inputKey);
    }
    if (op.window() == null) {
      return new TransformPlan(op.id(), op.filter(), op.select());
    }
    if (op.aggregate() == null) {
      return new TransformPlan(op.id(), null, null, window(op.window()));
    }
    WindowSpec w = op.window();
    return new WindowAggregatePlan(op.id(), keys, window(w), w.allowedLatenessMillis(), w.lateOutput(),
        aggregates(op.aggregate()));
  }

  private static JoinPlan join(String id, JoinSpec j, String filter, Map<String, String> select) {
    if (j.window() != null) {
      return JoinPlan.window(id, j.leftKeys(), j.rightKeys(), window(j.window()), filter, select);
    }
    if (j.between() != null) {
      return JoinPlan.interval(id, j.leftKeys(), j.rightKeys(), j.between().lowerMillis(), j.between().upperMillis(),
          filter, select);
    }
    return JoinPlan.regular(id, j.leftKeys(), j.rightKeys(), j.stateTtlMillis() == null ? 0 : j.stateTtlMillis(),
        filter, select);
  }

  private static WindowPlan window(WindowSpec w) {
    return switch (w.type()) {
      case "tumbling" -> WindowPlan.tumbling(w.sizeMillis());
      case "sliding" -> WindowPlan.sliding(w.sizeMillis(), w.slideMillis());
      case "session" -> WindowPlan.session(w.gapMillis());
      case "cumulate" -> WindowPlan.cumulate(w.sizeMillis(), w.stepMillis());
      default -> throw new IllegalArgumentException("unknown window type " + w.type());
    };
  }

  private static List<AggregatePlan> aggregates(Map<String, String> aggregate) {
    List<AggregatePlan> plans = new ArrayList<>();
    aggregate.forEach((name, sql) -> {
      AggregateCall call = Expressions.parseAggregate(sql);
      plans.add(new AggregatePlan(name, call.function(), call.argument()));
    });
    return plans;
  }
}
