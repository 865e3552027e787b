package io.tributary.scheduler.spec;

import io.tributary.expr.ExpressionException;
import io.tributary.expr.Expressions;
import io.tributary.stream.Changelog;
import io.tributary.scheduler.spec.internal.Pointers;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Checks one operator: which parts it combines, its keys, and its SQL expressions. An operator
 * with an aggregate (windowed or not) may not filter or select (put those in an operator before
 * it); a join may not key, window or aggregate (put those in an operator after it).
 */
final class OperatorValidator {
  /** Fields every window result carries. */
  static final List<String> WINDOW_FIELDS = List.of("window_start", "window_end", "revision");

  private OperatorValidator() {}

  static void check(OperatorSpec op, String at, List<SpecError> errors) {
    if (op == null) {
      return;
    }
    parts(op, at, errors);
    keyBy(op, at, errors);
    if (!SpecLimits.operator(op, at, errors)) {
      return;
    }
    expression(op.filter(), at + "/filter", Expressions::validateCondition, errors);
    each(op.select(), at + "/select", Expressions::validate, errors);
    each(op.aggregate(), at + "/aggregate", Expressions::parseAggregate, errors);
    aggregateNames(op, at, errors);
  }

  private static void parts(OperatorSpec op, String at, List<SpecError> errors) {
    if (op.filter() == null && op.select() == null && op.keyBy() == null && op.window() == null
        && op.aggregate() == null && op.union() == null && op.join() == null && op.topN() == null) {
      errors.add(new SpecError(at, "an operator needs at least one of filter, select, keyBy and window"));
    }
    if (op.window() != null && op.aggregate() == null) {
      windowAssignment(op, at, errors);
    }
    if (op.window() != null || op.aggregate() != null) {
      String hint = " cannot be combined with a" + (op.window() != null ? " window" : "n aggregate")
          + " in one operator; put it in an operator before this one";
      if (op.filter() != null) {
        errors.add(new SpecError(at + "/filter", "filter" + hint));
      }
      if (op.select() != null) {
        errors.add(new SpecError(at + "/select", "select" + hint));
      }
    }
    empty(op.select(), at + "/select", errors);
    empty(op.aggregate(), at + "/aggregate", errors);
    if (op.join() != null) {
      String after = "put it in an operator after this one";
      notWith("a join", "keyBy", op.keyBy(), after, at, errors);
      notWith("a join", "window", op.window(), after, at, errors);
      notWith("a join", "aggregate", op.aggregate(), after, at, errors);
    }
    if (op.topN() != null) {
      for (String part : List.of("filter", "select", "keyBy", "window", "aggregate", "union", "join")) {
        notWith("a topN", part, part(op, part), "give it an operator of its own", at, errors);
      }
    }
  }

  private static Object part(OperatorSpec op, String name) {
    return switch (name) {
      case "filter" -> op.filter();
      case "select" -> op.select();
      case "keyBy" -> op.keyBy();
      case "window" -> op.window();
      case "aggregate" -> op.aggregate();
      case "union" -> op.union();
      default -> op.join();
    };
  }

  /** A window without an aggregate assigns aligned windows to rows: nothing to key, nothing late. */
  private static void windowAssignment(OperatorSpec op, String at, List<SpecError> errors) {
    WindowSpec w = op.window();
    if ("session".equals(w.type())) {
      errors.add(new SpecError(at + "/window/type", "a session window needs an aggregate: sessions are known only "
          + "when they close (a window without an aggregate assigns tumbling, sliding or cumulate windows to rows)"));
    }
    if (w.allowedLatenessMillis() > 0 || w.lateOutput() != null) {
      errors.add(new SpecError(at + "/window/" + (w.lateOutput() != null ? "lateOutput" : "allowedLateness"),
          "applies to a window with an aggregate; a window without one only assigns windows to rows"));
    }
    if (op.keyBy() != null) {
      errors.add(new SpecError(at + "/keyBy", "a window without an aggregate only assigns windows to rows: key them "
          + "in an operator after this one"));
    }
  }

  private static void notWith(String what, String part, Object value, String hint, String at,
      List<SpecError> errors) {
    if (value != null) {
      errors.add(new SpecError(at + "/" + part, part + " cannot be combined with " + what + " in one operator; "
          + hint));
    }
  }

  private static void empty(Map<String, String> map, String at, List<SpecError> errors) {
    if (map != null && map.isEmpty()) {
      errors.add(new SpecError(at, "must name at least one output field"));
    }
  }

  private static void keyBy(OperatorSpec op, String at, List<SpecError> errors) {
    if (op.keyBy() == null) {
      return;
    }
    if (op.keyBy().isEmpty() && op.window() == null && op.aggregate() == null) {
      errors.add(new SpecError(at + "/keyBy", "must name at least one field (an empty keyBy only makes sense with a window)"));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < op.keyBy().size(); i++) {
      if (!seen.add(op.keyBy().get(i))) {
        errors.add(new SpecError(at + "/keyBy/" + i, "'" + op.keyBy().get(i) + "' is listed twice"));
      }
    }
  }

  private static void aggregateNames(OperatorSpec op, String at, List<SpecError> errors) {
    if (op.aggregate() == null) {
      return;
    }
    List<String> keys = op.keyBy() == null ? List.of() : op.keyBy();
    for (String name : op.aggregate().keySet()) {
      String pointer = Pointers.child(at + "/aggregate", name);
      if (op.window() != null && WINDOW_FIELDS.contains(name)) {
        errors.add(new SpecError(pointer, "'" + name + "' is a field of every window result; choose another name"));
      } else if (op.window() == null && name.equals(Changelog.FIELD)) {
        errors.add(new SpecError(pointer, "'" + name + "' says whether a result is an insert or an update; choose "
            + "another name"));
      } else if (keys.contains(name)) {
        errors.add(new SpecError(pointer, "'" + name + "' is a key field; choose another name"));
      }
    }
  }

  private static void each(Map<String, String> map, String at, Consumer<String> check, List<SpecError> errors) {
    if (map != null) {
      map.forEach((name, sql) -> expression(sql, Pointers.child(at, name), check, errors));
    }
  }

  private static void expression(String sql, String at, Consumer<String> check, List<SpecError> errors) {
    if (sql == null) {
      return;
    }
    SpecBudget.check();
    try {
      check.accept(sql);
    } catch (ExpressionException e) {
      errors.add(new SpecError(at, e.getMessage()));
    }
  }
}
