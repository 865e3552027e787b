package io.tributary.expr.internal;

import io.tributary.expr.AggregateCall;
import io.tributary.expr.ExpressionException;
import io.tributary.plan.AggregatePlan;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/** Static analysis behind {@link io.tributary.expr.Expressions}: checking, fields, aggregates. */
public final class Analysis {
  private Analysis() {}

  /** Parses and type-checks {@code sql}, returning the generator holding the generated code state. */
  static Generator generate(String sql) {
    Generator g = new Generator(sql);
    g.gen(Parsing.parse(sql));
    return g;
  }

  public static void validate(String sql) {
    generate(sql);
  }

  /** Like {@link #validate}, and the expression must be a condition: BOOLEAN, or of a type known only per record. */
  public static void validateCondition(String sql) {
    Generator g = new Generator(sql);
    Code root = g.gen(Parsing.parse(sql));
    if (!root.type().fits("BOOLEAN")) {
      throw new ExpressionException("`" + sql + "` is " + root.describe() + ", not a condition: a filter must be "
          + "BOOLEAN (for example `" + sql + " > 0`)");
    }
  }

  /** The fields read by {@code sql}, in order of first appearance. */
  public static Set<String> referencedFields(String sql) {
    return Collections.unmodifiableSet(new LinkedHashSet<>(generate(sql).fields));
  }

  /** Parses {@code count(*)}, {@code count(x)}, {@code count(DISTINCT x)}, {@code sum(x)}, {@code min}, {@code max}, {@code avg}. */
  public static AggregateCall parseAggregate(String sql) {
    SqlNode node = Parsing.parse(sql);
    if (!(node instanceof SqlBasicCall) || node.getKind() != SqlKind.OTHER_FUNCTION) {
      throw notAggregate(sql);
    }
    SqlBasicCall call = (SqlBasicCall) node;
    AggregatePlan.Function function = function(call.getOperator().getName(), sql);
    if (call.getFunctionQuantifier() != null) {
      boolean distinctCount = function == AggregatePlan.Function.COUNT
          && "DISTINCT".equalsIgnoreCase(call.getFunctionQuantifier().toValue());
      if (!distinctCount) {
        throw new ExpressionException("`" + sql + "`: " + call.getFunctionQuantifier() + " is supported only in "
            + "count(DISTINCT x)");
      }
      function = AggregatePlan.Function.COUNT_DISTINCT;
    }
    if (call.operandCount() != 1) {
      throw new ExpressionException("`" + sql + "`: " + function + " takes exactly one argument");
    }
    SqlNode arg = call.operand(0);
    if (arg instanceof SqlIdentifier && ((SqlIdentifier) arg).isStar()) {
      if (function != AggregatePlan.Function.COUNT) {
        throw new ExpressionException("`" + sql + "`: only count accepts *");
      }
      return new AggregateCall(function, null);
    }
    String argument = argumentText(sql, call);
    if (function == AggregatePlan.Function.COUNT_DISTINCT) {
      argument = argument.replaceFirst("(?i)^DISTINCT\\s+", "");
    }
    validate(argument);
    return new AggregateCall(function, argument);
  }

  private static AggregatePlan.Function function(String name, String sql) {
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "COUNT" -> AggregatePlan.Function.COUNT;
      case "SUM" -> AggregatePlan.Function.SUM;
      case "MIN" -> AggregatePlan.Function.MIN;
      case "MAX" -> AggregatePlan.Function.MAX;
      case "AVG" -> AggregatePlan.Function.AVG;
      default -> throw notAggregate(sql);
    };
  }

  private static ExpressionException notAggregate(String sql) {
    return new ExpressionException("`" + sql + "` is not an aggregate call; expected one of "
        + "count(*), count(x), count(DISTINCT x), sum(x), min(x), max(x), avg(x)");
  }

  /** The user's own text between the call's parentheses (keeps quoting and case). */
  private static String argumentText(String sql, SqlCall call) {
    String text = Parsing.text(sql, call);
    int open = text.indexOf('(');
    int close = text.lastIndexOf(')');
    if (open < 0 || close <= open) {
      return call.operand(0).toString();
    }
    return text.substring(open + 1, close).trim();
  }
}
