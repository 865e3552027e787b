package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.Pointers;
import io.tributary.scheduler.spec.internal.Suggestions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks input references, cycles, and that every window sees event time. */
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
      if (op != null && reference(op.input(), "/operators/" + i + "/input")) {
        cycle(op, "/operators/" + i + "/input", inCycle);
        eventTime(op, "/operators/" + i + "/window", inCycle);
      }
    }
    for (SinkSpec sink : spec.sinks().values()) {
      reference(sink.input(), Pointers.child(Pointers.child("/sinks", sink.id()), "input"));
    }
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

  /** The ids upstream of {@code op}, nearest first, up to a source, an unknown name or a repeat. */
  private List<String> upstream(OperatorSpec op) {
    List<String> path = new ArrayList<>();
    path.add(op.id());
    OperatorSpec current = op;
    while (current != null) {
      SpecGraph.Producer producer = graph.resolve(current.input());
      if (producer == null) {
        break;
      }
      path.add(producer.nodeId());
      if (path.indexOf(producer.nodeId()) < path.size() - 1) {
        break;
      }
      current = operators.get(producer.nodeId());
    }
    return path;
  }

  private void cycle(OperatorSpec op, String at, Set<String> inCycle) {
    List<String> path = upstream(op);
    String last = path.get(path.size() - 1);
    if (op.id() == null || !last.equals(op.id()) || path.size() < 2 || inCycle.contains(op.id())) {
      return;
    }
    inCycle.addAll(path);
    List<String> downstreamOrder = new ArrayList<>(path);
    Collections.reverse(downstreamOrder);
    errors.add(new SpecError(at, "cycle: " + String.join(" -> ", downstreamOrder)));
  }

  private void eventTime(OperatorSpec op, String at, Set<String> inCycle) {
    if (op.window() == null || inCycle.contains(op.id())) {
      return;
    }
    List<String> path = upstream(op);
    SourceSpec source = spec.sources().get(path.get(path.size() - 1));
    if (source != null && source.eventTime() == null) {
      errors.add(new SpecError(at, "a window needs event time, but source '" + source.id()
          + "' declares no eventTime"));
    }
  }
}
