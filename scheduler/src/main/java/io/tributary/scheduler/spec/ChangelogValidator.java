package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.Pointers;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Checks where upsert streams go. An aggregate without a window emits an upsert stream: each
 * record an insert or an update of its group's results (a field {@code _op}), keyed by the group;
 * so does a topN without a window, keyed by its partition and rank.
 * Only what keeps the latest record per key, or writes the changes as they are, may read one:
 *
 * <ul>
 *   <li>a {@code kafka} sink with {@code delivery: upsert}, whose {@code keyFields} (default: the
 *       group's fields) must be the group's fields, so each group's updates replace each other;
 *   <li>a {@code file} sink with {@code changelog: true} (each line with its {@code _op});
 *   <li>{@code stdout} and {@code blackhole}.
 * </ul>
 *
 * <p>No operator reads one: a filter or a join would need to retract results it already passed on.
 */
final class ChangelogValidator {
  private static final String WHAT = " is an upsert stream (an aggregate or a topN without a window, whose results "
      + "update as records arrive; each record carries _op: insert or update)";

  private ChangelogValidator() {}

  static void check(JobSpec spec, List<SpecError> errors) {
    SpecGraph graph = SpecGraph.of(spec);
    for (int i = 0; i < spec.operators().size(); i++) {
      OperatorSpec op = spec.operators().get(i);
      if (op == null) {
        continue;
      }
      List<String> inputs = op.inputNames();
      for (int k = 0; k < inputs.size(); k++) {
        if (inputs.get(k) != null && graph.upsertKey(inputs.get(k)) != null) {
          errors.add(new SpecError(GraphValidator.inputPointer(op, "/operators/" + i, k), "'" + inputs.get(k) + "'"
              + WHAT + "; no operator reads one yet: send it to a kafka sink with delivery: upsert, a file sink with "
              + "changelog: true, stdout or blackhole"));
        }
      }
    }
    for (SinkSpec sink : spec.sinks().values()) {
      List<String> key = graph.upsertKey(sink.input());
      if (key != null && sink.type() != null) {
        sink(sink, key, Pointers.child("/sinks", sink.id()), errors);
      }
    }
  }

  private static void sink(SinkSpec sink, List<String> key, String at, List<SpecError> errors) {
    Map<String, Object> p = sink.properties();
    String input = "'" + sink.input() + "'" + WHAT;
    switch (sink.type()) {
      case "kafka" -> {
        if (!"upsert".equals(p.get("delivery"))) {
          errors.add(new SpecError(at + "/delivery", input + ": a kafka sink takes it with delivery: upsert, keyed "
              + "by " + key + ", so a compacted topic keeps each group's latest result"));
        } else if (p.get("keyFields") instanceof Collection<?> fields && !new HashSet<>(fields).equals(
            new HashSet<>(key))) {
          errors.add(new SpecError(at + "/keyFields", "must be the fields of the groups of " + input + ", " + key
              + " (or left out: they are the default), so that each group's updates replace each other"));
        }
      }
      case "file" -> {
        if (!Boolean.TRUE.equals(p.get("changelog"))) {
          errors.add(new SpecError(at + "/changelog", input + ": a file sink writes it with changelog: true, each "
              + "line a change"));
        }
      }
      default -> {
        // stdout and blackhole take any stream
      }
    }
  }
}
