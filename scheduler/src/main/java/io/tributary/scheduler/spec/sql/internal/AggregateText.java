package io.tributary.scheduler.spec.sql.internal;

import java.util.function.IntFunction;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Writes an aggregate call of a relational plan as the spec's aggregate text: {@code count(*)},
 * {@code count(x)}, {@code count(DISTINCT x)}, {@code sum(x)}, {@code min(x)}, {@code max(x)},
 * {@code avg(x)}. A {@code FILTER (WHERE c)} becomes a CASE on the argument ({@code count(*)}
 * becomes a sum of 1s), which is the same since aggregates skip nulls.
 */
final class AggregateText {
  private AggregateText() {}

  /**
   * @param column the expression text of the aggregate's input column i
   * @throws Unsupported for another function, or DISTINCT
   */
  static String of(AggregateCall call, IntFunction<String> column) {
    String name = call.getAggregation().getName();
    SqlKind kind = call.getAggregation().getKind();
    if (call.isDistinct() && kind != SqlKind.COUNT) {
      throw new Unsupported(name + "(DISTINCT ...) is not supported; COUNT(DISTINCT x) is", name);
    }
    String function = switch (kind) {
      case COUNT -> "count";
      case SUM, SUM0 -> "sum";
      case MIN -> "min";
      case MAX -> "max";
      case AVG -> "avg";
      default -> throw new Unsupported("aggregate function " + name + " is not supported; use COUNT, SUM, MIN, MAX "
          + "or AVG", name);
    };
    if ((kind == SqlKind.MIN || kind == SqlKind.MAX) && !call.getArgList().isEmpty()
        && SqlTypeFamily.CHARACTER.contains(call.getType())) {
      throw new Unsupported(name + " of strings is not supported: MIN and MAX take numbers and timestamps", name);
    }
    String filter = call.filterArg >= 0 ? column.apply(call.filterArg) : null;
    if (call.getArgList().isEmpty()) {
      return filter == null ? "count(*)" : "sum(CASE WHEN " + filter + " THEN 1 ELSE 0 END)";
    }
    if (call.getArgList().size() > 1) {
      throw new Unsupported(name + " of several columns is not supported", name);
    }
    String arg = column.apply(call.getArgList().get(0));
    if (filter != null) {
      arg = "CASE WHEN " + filter + " THEN " + arg + " ELSE NULL END";
    }
    return function + "(" + (call.isDistinct() ? "DISTINCT " : "") + arg + ")";
  }
}
