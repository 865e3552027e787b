package io.tributary.scheduler.spec;

import io.tributary.expr.AggregateCall;
import io.tributary.expr.Expressions;
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
      String at = "/operators/" + i;
      for (int k = 0; k < inputs.size(); k++) {
        List<String> key = inputs.get(k) == null ? null : graph.upsertKey(inputs.get(k));
        if (key == null) {
          continue;
        }
        if (aggregatesUpdates(op)) {
          aggregate(op, inputs.get(k), key, at, errors);
        } else {
          errors.add(new SpecError(GraphValidator.inputPointer(op, at, k), "'" + inputs.get(k) + "'"
              + WHAT + "; of the operators only an aggregate without a window reads one: send it there, or to a "
              + "kafka sink with delivery: upsert, a file sink with changelog: true, stdout or blackhole"));
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

  /** Whether {@code op} is an aggregate without a window reading one input as it is. */
  private static boolean aggregatesUpdates(OperatorSpec op) {
    return op.aggregate() != null && op.window() == null && op.input() != null && op.union() == null
        && op.join() == null && op.topN() == null && op.filter() == null && op.select() == null;
  }

  /**
   * An aggregate over an upsert stream: it retracts each input key's last record, so its groups are
   * fields of that key (a key's records stay in one group) and its aggregates retract.
   */
  private static void aggregate(OperatorSpec op, String input, List<String> key, String at, List<SpecError> errors) {
    List<String> keyBy = op.keyBy() == null ? List.of() : op.keyBy();
    if (!key.containsAll(keyBy)) {
      errors.add(new SpecError(at + "/keyBy", "must name fields of the key of '" + input + "', " + key + ", since it"
          + WHAT + ": each of its keys' results replaces the last one, which is taken out of the group that counted "
          + "it, so a key's results must stay in one group"));
    }
    op.aggregate().forEach((name, sql) -> {
      AggregateCall call;
      try {
        call = Expressions.parseAggregate(sql);
      } catch (RuntimeException e) {
        return; // reported with the operator
      }
      if (!call.function().retracts()) {
        errors.add(new SpecError(Pointers.child(at + "/aggregate", name), "`" + sql + "`: '" + input + "'" + WHAT
            + ", whose replaced results are taken out of the aggregates: count, sum and avg can, min, max and "
            + "count(DISTINCT) cannot (they would need every value kept)"));
      }
    });
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
