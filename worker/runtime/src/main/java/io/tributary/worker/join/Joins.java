package io.tributary.worker.join;

import io.tributary.plan.JoinPlan;
import io.tributary.state.StateCodec;
import io.tributary.worker.operator.TwoInputOperator;

/** The operator that runs a {@link JoinPlan}, and the codec of its timers' namespaces. */
public final class Joins {
  private Joins() {}

  /** A window join's {@link WindowJoinOperator}, else a {@link StreamJoinOperator}. */
  public static TwoInputOperator create(JoinPlan plan) {
    return plan.type() == JoinPlan.Type.WINDOW ? new WindowJoinOperator(plan) : new StreamJoinOperator(plan);
  }

  public static StateCodec<?> namespaceCodec(JoinPlan plan) {
    return plan.type() == JoinPlan.Type.WINDOW
        ? WindowJoinOperator.namespaceCodec() : StreamJoinOperator.namespaceCodec();
  }
}
