package io.tributary.plan;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an operator's keyed state is made of, as far as restoring it depends on it: a checkpoint
 * records each stateful operator's layout, and a job restores it only into an operator of the same
 * id with the same layout.
 *
 * <p>Aggregates keep one accumulator slot per aggregate, by position, so the functions and their
 * order are the layout (an output field's name or an argument may change: the slot reads the same).
 * A join's kind decides how its rows are kept (per window, or per time). Top-N keeps whole records,
 * which read under any spec; its layout is its kind alone.
 */
public final class StateLayouts {
  private StateLayouts() {}

  /** Per operator id, the layout of every operator of {@code plan} that keeps keyed state. */
  public static Map<String, String> of(ExecutionPlan plan) {
    Map<String, String> out = new TreeMap<>();
    for (StagePlan stage : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        String layout = of(op);
        if (layout != null) {
          out.put(op.id(), layout);
        }
      }
    }
    return out;
  }

  /** The operator's layout, or null when it keeps no keyed state. */
  public static String of(OperatorPlan op) {
    if (op instanceof WindowAggregatePlan w) {
      return "window-aggregate " + functions(w.aggregates());
    }
    if (op instanceof GroupAggregatePlan g) {
      return "group-aggregate " + functions(g.aggregates()) + (g.inputKey() == null ? "" : " over an upsert stream");
    }
    if (op instanceof JoinPlan j) {
      return j.type().name().toLowerCase(java.util.Locale.ROOT) + " join";
    }
    if (op instanceof TopNPlan) {
      return "top-n";
    }
    return null;
  }

  /**
   * Why state of layout {@code was} cannot be restored into operator {@code id} of layout {@code
   * now}, or null when it can (equal layouts, or a checkpoint that recorded none).
   */
  public static String mismatch(String id, String was, String now) {
    if (was == null || now == null || was.equals(now)) {
      return null;
    }
    String what = was.startsWith("window-aggregate ") && now.startsWith("window-aggregate ")
        || was.startsWith("group-aggregate ") && now.startsWith("group-aggregate ")
        ? "; it keeps one accumulator per aggregate, in order, so the aggregates' functions and order must stay "
            + "(their names and arguments may change)"
        : "";
    return "operator '" + id + "' has state of a " + was + ", but is now a " + now + what;
  }

  /**
   * Why state recorded with the layouts {@code was} (per operator id) cannot be restored into
   * {@code plan}: its first operator whose layout changed, or that it no longer has (state belongs
   * to an operator's id); null when every one can.
   */
  public static String mismatch(Map<String, String> was, ExecutionPlan plan) {
    Map<String, String> now = of(plan);
    for (Map.Entry<String, String> e : new TreeMap<>(was).entrySet()) {
      if (!now.containsKey(e.getKey())) {
        return "operator '" + e.getKey() + "' has state of a " + e.getValue() + ", but the job no longer has a "
            + "stateful operator of that id (state belongs to an operator's id)";
      }
      String m = mismatch(e.getKey(), e.getValue(), now.get(e.getKey()));
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  private static String functions(List<AggregatePlan> aggregates) {
    return aggregates.stream().map(a -> a.function().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '))
        .toList().toString();
  }
}
