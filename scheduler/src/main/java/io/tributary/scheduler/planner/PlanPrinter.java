package io.tributary.scheduler.planner;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.plan.JoinPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TopNPlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.state.KeyGroups;
import java.util.stream.Collectors;

/**
 * A readable, multi-line explanation of an execution plan: its stages with parallelism and chained
 * operators, the exchanges between them, and for stages fed by a hash exchange the key-group range
 * each subtask owns (at most {@value #MAX_SUBTASKS_LISTED} subtasks listed).
 */
public final class PlanPrinter {
  static final int MAX_SUBTASKS_LISTED = 16;

  private PlanPrinter() {}

  /** {@code n} and {@code noun}, plural unless {@code n} is 1: "1 stage", "3 stages". */
  public static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  public static String describe(ExecutionPlan plan) {
    StringBuilder out = new StringBuilder();
    out.append("job ").append(plan.jobName()).append(": ").append(count(plan.stages().size(), "stage")).append(", ")
        .append(plan.maxParallelism()).append(" key groups, state backend ").append(plan.stateBackend()).append('\n');
    for (StagePlan stage : plan.stages()) {
      stage(plan, stage, out);
    }
    return out.toString();
  }

  private static void stage(ExecutionPlan plan, StagePlan stage, StringBuilder out) {
    out.append("stage ").append(stage.id()).append(" [").append(stage.name()).append("] x")
        .append(stage.parallelism()).append('\n');
    for (EdgePlan in : plan.inputsOf(stage.id())) {
      boolean severalInputs = plan.inputsOf(stage.id()).stream().anyMatch(e -> e.toInput() > 0
          && e.toOperator().equals(in.toOperator()));
      out.append("  <- ").append(exchange(in)).append(" from stage ").append(in.fromStage()).append(' ')
          .append(in.fromOperator()).append(port(in.port())).append(" into ").append(in.toOperator())
          .append(severalInputs ? " (input " + in.toInput() + ")" : "").append('\n');
    }
    for (OperatorPlan op : stage.operators()) {
      out.append("  ").append(operator(op)).append('\n');
    }
    for (ChainLink link : stage.links()) {
      out.append("  chained ").append(link.from()).append(port(link.port())).append(" -> ").append(link.to()).append('\n');
    }
    if (plan.inputsOf(stage.id()).stream().anyMatch(e -> e.partitioning() == EdgePlan.Partitioning.HASH)) {
      keyGroups(plan.maxParallelism(), stage.parallelism(), out);
    }
  }

  private static String exchange(EdgePlan e) {
    return switch (e.partitioning()) {
      case HASH -> e.keyFields().isEmpty() ? "hash (one global key)" : "hash by " + e.keyFields();
      case REBALANCE -> "rebalance";
      case FORWARD -> "forward";
    };
  }

  private static String port(String port) {
    return port == null ? "" : "[" + port + "]";
  }

  private static void keyGroups(int maxParallelism, int parallelism, StringBuilder out) {
    out.append("  key groups:");
    int listed = Math.min(parallelism, MAX_SUBTASKS_LISTED);
    for (int i = 0; i < listed; i++) {
      out.append(i == 0 ? " " : ", ").append("subtask ").append(i).append(' ')
          .append(KeyGroups.rangeFor(maxParallelism, parallelism, i));
    }
    if (listed < parallelism) {
      out.append(", ... (").append(parallelism - listed).append(" more)");
    }
    out.append('\n');
  }

  /** One line that says what {@code op} does, as {@link #describe(ExecutionPlan)} prints it. */
  public static String operator(OperatorPlan op) {
    if (op instanceof SourcePlan s) {
      String time = s.eventTime() == null ? "no event time"
          : "event time " + s.eventTime().field() + ", out-of-orderness " + s.eventTime().maxOutOfOrdernessMillis() + "ms";
      return "source " + s.id() + " (" + s.type() + ", " + s.format() + ", " + time + ")";
    }
    if (op instanceof TransformPlan t) {
      if (t.window() != null) {
        return "windows " + t.id() + " " + window(t.window()) + " (each row once per window, with window_start, "
            + "window_end)";
      }
      if (t.filter() == null && t.select() == null) {
        return "repartition " + t.id();
      }
      return "transform " + t.id() + (t.filter() == null ? "" : " filter " + t.filter())
          + (t.select() == null ? "" : " select " + t.select());
    }
    if (op instanceof WindowAggregatePlan w) {
      String aggs = w.aggregates().stream().map(PlanPrinter::aggregate).collect(Collectors.joining(", "));
      return "window " + w.id() + " " + window(w.window()) + " keyBy " + w.keyBy() + ", lateness "
          + w.allowedLatenessMillis() + "ms" + (w.lateOutput() == null ? "" : ", late -> " + w.lateOutput())
          + ": " + aggs;
    }
    if (op instanceof JoinPlan j) {
      return join(j);
    }
    if (op instanceof TopNPlan t) {
      String order = t.orderBy().stream().map(k -> k.field() + (k.descending() ? " desc" : "")
          + (k.nullsFirst() ? " nulls first" : "")).collect(Collectors.joining(", "));
      return "top " + t.limit() + " " + t.id() + " per " + t.partitionBy() + " by " + order
          + (t.rankField() == null ? "" : ", rank -> " + t.rankField())
          + (TopNPlan.perWindow(t.partitionBy()) ? "" : " (unbounded: an upsert stream)");
    }
    if (op instanceof GroupAggregatePlan g) {
      String aggs = g.aggregates().stream().map(PlanPrinter::aggregate).collect(Collectors.joining(", "));
      return "group aggregate " + g.id() + " keyBy " + g.keyBy() + " (an upsert stream"
          + (g.inputKey() == null ? "" : ", over upserts keyed by " + g.inputKey()) + "): " + aggs;
    }
    SinkPlan k = (SinkPlan) op;
    return "sink " + k.id() + " (" + k.type() + ", " + k.format()
        + (k.upsertKey() == null ? "" : ", upserts keyed by " + k.upsertKey()) + ")";
  }

  private static String join(JoinPlan j) {
    String on = "";
    for (int i = 0; i < j.leftKeys().size(); i++) {
      on += (i == 0 ? "" : " and ") + "l." + j.leftKeys().get(i) + " = r." + j.rightKeys().get(i);
    }
    String time = switch (j.type()) {
      case WINDOW -> "window join " + window(j.window());
      case INTERVAL -> "interval join, r.ts in [l.ts + " + j.lowerBoundMillis() + "ms, l.ts + " + j.upperBoundMillis()
          + "ms]";
      case REGULAR -> "regular join" + (j.stateTtlMillis() > 0 ? ", state ttl " + j.stateTtlMillis() + "ms" : "");
    };
    return time + " " + j.id() + " on " + on + (j.filter() == null ? "" : " filter " + j.filter())
        + (j.select() == null ? "" : " select " + j.select());
  }

  private static String window(WindowPlan w) {
    return switch (w.type()) {
      case TUMBLING -> "tumbling " + w.sizeMillis() + "ms";
      case SLIDING -> "sliding " + w.sizeMillis() + "ms every " + w.slideMillis() + "ms";
      case SESSION -> "session gap " + w.gapMillis() + "ms";
      case CUMULATE -> "cumulate " + w.sizeMillis() + "ms every " + w.slideMillis() + "ms";
    };
  }

  private static String aggregate(AggregatePlan a) {
    if (a.function() == AggregatePlan.Function.COUNT_DISTINCT) {
      return a.name() + " = count(DISTINCT " + a.argument() + ")";
    }
    return a.name() + " = " + a.function().name().toLowerCase() + "(" + (a.argument() == null ? "*" : a.argument()) + ")";
  }
}
