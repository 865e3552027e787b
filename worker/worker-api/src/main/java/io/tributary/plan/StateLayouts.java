package io.tributary.plan;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an operator's keyed state is made of, as far as restoring it depends on it: a checkpoint
 * records each stateful operator's layout, and a job restores it only into an operator of the same
 * id with the same layout.
 *
 * <p>The key fields are the layout (state is kept per key, its key groups hashed from their
 * values). Aggregates keep one accumulator slot per aggregate, by position, so the functions and
 * their order are too (an output field's name or an argument may change: the slot reads the same).
 * A join's kind decides how its rows are kept (per window, or per time). Records (top-N's rows, a
 * join's) read under any spec.
 */
public final class StateLayouts {
  private StateLayouts() {}

  /**
   * One operator's layout.
   *
   * @param kind {@code window-aggregate}, {@code group-aggregate}, {@code group-aggregate over an
   *     upsert stream}, {@code window join}, {@code interval join}, {@code regular join}, {@code
   *     top-n}
   * @param keys the fields its state is keyed by (a join's: its left input's)
   * @param aggregates an aggregate's functions in order ({@code count}, {@code sum}, {@code count
   *     distinct}...); empty for other kinds
   */
  public record StateLayout(String kind, List<String> keys, List<String> aggregates) {
    public StateLayout {
      keys = List.copyOf(keys);
      aggregates = aggregates == null ? List.of() : List.copyOf(aggregates);
    }

    @Override
    public String toString() {
      return kind + (aggregates.isEmpty() ? "" : " " + aggregates) + " keyed by " + keys;
    }
  }

  /** Per operator id, the layout of every operator of {@code plan} that keeps keyed state. */
  public static Map<String, StateLayout> of(ExecutionPlan plan) {
    Map<String, StateLayout> out = new TreeMap<>();
    for (StagePlan stage : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        StateLayout layout = of(op);
        if (layout != null) {
          out.put(op.id(), layout);
        }
      }
    }
    return out;
  }

  /** The operator's layout, or null when it keeps no keyed state. */
  public static StateLayout of(OperatorPlan op) {
    if (op instanceof WindowAggregatePlan w) {
      return new StateLayout("window-aggregate", w.keyBy(), functions(w.aggregates()));
    }
    if (op instanceof GroupAggregatePlan g) {
      return new StateLayout(g.inputKey() == null ? "group-aggregate" : "group-aggregate over an upsert stream",
          g.keyBy(), functions(g.aggregates()));
    }
    if (op instanceof JoinPlan j) {
      return new StateLayout(j.type().name().toLowerCase(Locale.ROOT) + " join", j.leftKeys(), List.of());
    }
    if (op instanceof TopNPlan t) {
      return new StateLayout("top-n", t.partitionBy(), List.of());
    }
    return null;
  }

  /**
   * Why state of layout {@code was} cannot be restored into operator {@code id} of layout {@code
   * now}, or null when it can (equal layouts, or a checkpoint that recorded none).
   */
  private static String mismatch(String id, StateLayout was, StateLayout now) {
    if (was == null || now == null || was.equals(now)) {
      return null;
    }
    String op = "operator '" + id + "'";
    String why;
    if (!was.kind().equals(now.kind())) {
      why = op + " has state of a " + was.kind() + ", but is now a " + now.kind();
    } else if (!was.keys().equals(now.keys())) {
      why = op + " has state keyed by " + was.keys() + ", but is now keyed by " + now.keys()
          + "; state is kept per key, so its key fields must stay";
    } else {
      why = op + " has state of the aggregates " + was.aggregates() + ", but now computes " + now.aggregates()
          + "; it keeps one accumulator per aggregate, in order, so the aggregates' functions and order must stay "
          + "(their names and arguments may change)";
    }
    return why + " (to start only this operator without state, give it a new id and set "
        + "state.allowNonRestoredState: true)";
  }

  /**
   * Why state recorded with the layouts {@code was} (per operator id) cannot be restored into
   * {@code plan}: its first operator whose layout changed, or that it no longer has (state belongs
   * to an operator's id); null when every one can.
   */
  public static String mismatch(Map<String, StateLayout> was, ExecutionPlan plan) {
    Map<String, StateLayout> now = of(plan);
    for (Map.Entry<String, StateLayout> e : new TreeMap<>(was).entrySet()) {
      if (!now.containsKey(e.getKey())) {
        return "operator '" + e.getKey() + "' has state (a " + e.getValue() + "), but the job no longer has a "
            + "stateful operator of that id (state belongs to an operator's id; state.allowNonRestoredState: true "
            + "leaves it behind)";
      }
      String m = mismatch(e.getKey(), e.getValue(), now.get(e.getKey()));
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  private static List<String> functions(List<AggregatePlan> aggregates) {
    return aggregates.stream().map(a -> a.function().name().toLowerCase(Locale.ROOT).replace('_', ' ')).toList();
  }
}
