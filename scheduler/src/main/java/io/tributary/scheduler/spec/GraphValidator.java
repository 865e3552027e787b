package io.tributary.scheduler.spec;

import io.tributary.plan.TopNPlan;
import io.tributary.scheduler.spec.internal.Pointers;
import io.tributary.scheduler.spec.internal.Suggestions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks input references (an operator's {@code input}, each name of its {@code union}, a join's
 * {@code left} and {@code right}), cycles, and that every window, and every join that compares
 * times, sees event time on every path from its sources.
 */
final class GraphValidator {
  private final JobSpec spec;
  private final SpecGraph graph;
  private final List<SpecError> errors;
  private final Map<String, OperatorSpec> operators = new HashMap<>();

  private GraphValidator(JobSpec spec, List<SpecError> errors) {
    this.spec = spec;
    this.graph = SpecGraph.of(spec);
    this.errors = errors;
    spec.operators().stream().filter(op -> op != null && op.id() != null)
        .forEach(op -> operators.putIfAbsent(op.id(), op));
  }

  static void check(JobSpec spec, List<SpecError> errors) {
    new GraphValidator(spec, errors).run();
  }

  private void run() {
    Set<String> inCycle = new HashSet<>();
    for (int i = 0; i < spec.operators().size(); i++) {
      OperatorSpec op = spec.operators().get(i);
      if (op == null) {
        continue;
      }
      String at = "/operators/" + i;
      boolean resolved = true;
      List<String> inputs = op.inputNames();
      for (int k = 0; k < inputs.size(); k++) {
        resolved &= reference(inputs.get(k), inputPointer(op, at, k));
      }
      if (resolved && !inputs.isEmpty() && inputs.stream().noneMatch(java.util.Objects::isNull)) {
        cycle(op, at, inCycle);
        eventTime(op, at, inCycle);
      }
    }
    for (SinkSpec sink : spec.sinks().values()) {
      reference(sink.input(), Pointers.child(Pointers.child("/sinks", sink.id()), "input"));
    }
  }

  /** The pointer of input {@code k} of {@code op}: its {@code input}, or the k-th name of its {@code union}. */
  static String inputPointer(OperatorSpec op, String at, int k) {
    if (op.join() != null) {
      return at + "/join/" + (k == 0 ? "left" : "right");
    }
    return op.union() != null ? at + "/union/" + k : at + "/input";
  }

  /** Whether {@code input} resolves; adds an error if it does not. */
  private boolean reference(String input, String at) {
    if (input == null) {
      return false;
    }
    if (graph.resolve(input) != null) {
      return true;
    }
    if (spec.sinks().containsKey(input)) {
      errors.add(new SpecError(at, "'" + input + "' is a sink; an input must be a source, an operator or a side output"));
    } else {
      errors.add(new SpecError(at, "unknown input '" + input + "'" + Suggestions.hint(input, graph.names())
          + "; known: " + String.join(", ", graph.names())));
    }
    return false;
  }

  /** The producers' node ids of {@code op}'s inputs, in input order (unknown names skipped). */
  private List<String> producers(OperatorSpec op) {
    List<String> ids = new ArrayList<>();
    for (String input : op.inputNames()) {
      SpecGraph.Producer p = input == null ? null : graph.resolve(input);
      if (p != null) {
        ids.add(p.nodeId());
      }
    }
    return ids;
  }

  /**
   * Reports a cycle through {@code op} once, at the input that closes it, as the path downstream
   * from {@code op} back to it.
   */
  private void cycle(OperatorSpec op, String at, Set<String> inCycle) {
    if (op.id() == null || inCycle.contains(op.id())) {
      return;
    }
    List<String> inputs = op.inputNames();
    for (int k = 0; k < inputs.size(); k++) {
      SpecGraph.Producer p = graph.resolve(inputs.get(k));
      List<String> path = new ArrayList<>(List.of(op.id()));
      if (p != null && upstreamReaches(p.nodeId(), op.id(), path, new HashSet<>())) {
        inCycle.addAll(path);
        List<String> downstreamOrder = new ArrayList<>(path);
        Collections.reverse(downstreamOrder);
        errors.add(new SpecError(inputPointer(op, at, k), "cycle: " + String.join(" -> ", downstreamOrder)));
        return;
      }
    }
  }

  /** Whether {@code target} is {@code node} or upstream of it; on success {@code path} ends with the way there. */
  private boolean upstreamReaches(String node, String target, List<String> path, Set<String> seen) {
    path.add(node);
    if (node.equals(target)) {
      return true;
    }
    OperatorSpec op = operators.get(node);
    if (op != null && seen.add(node)) {
      for (String producer : producers(op)) {
        if (upstreamReaches(producer, target, path, seen)) {
          return true;
        }
      }
    }
    path.remove(path.size() - 1);
    return false;
  }

  /** The sources upstream of {@code op}, in the order they are found (cycles are cut). */
  Set<SourceSpec> sourcesOf(OperatorSpec op) {
    Set<SourceSpec> found = new LinkedHashSet<>();
    collectSources(op, found, new HashSet<>());
    return found;
  }

  private void collectSources(OperatorSpec op, Set<SourceSpec> found, Set<String> seen) {
    for (String producer : producers(op)) {
      SourceSpec source = spec.sources().get(producer);
      if (source != null) {
        found.add(source);
      } else if (operators.containsKey(producer) && seen.add(producer)) {
        collectSources(operators.get(producer), found, seen);
      }
    }
  }

  /** A window, and a join that compares times, need event time on every path from a source. */
  private void eventTime(OperatorSpec op, String at, Set<String> inCycle) {
    String what;
    String where;
    JoinSpec join = op.join();
    if (op.window() != null) {
      what = "a window";
      where = at + "/window";
    } else if (join != null && join.window() != null) {
      what = "a window join";
      where = at + "/join/window";
    } else if (join != null && join.between() != null) {
      what = "an interval join";
      where = at + "/join/between";
    } else if (join != null && join.stateTtlMillis() != null) {
      what = "a join with a stateTtl";
      where = at + "/join/stateTtl";
    } else if (op.topN() != null && op.topN().partitionBy() != null
        && TopNPlan.perWindow(op.topN().partitionBy())) {
      what = "a topN";
      where = at + "/topN";
    } else {
      return;
    }
    if (inCycle.contains(op.id())) {
      return;
    }
    for (SourceSpec source : sourcesOf(op)) {
      if (source.eventTime() == null) {
        errors.add(new SpecError(where, what + " needs event time, but source '" + source.id()
            + "' declares no eventTime"));
        return;
      }
    }
  }
}
