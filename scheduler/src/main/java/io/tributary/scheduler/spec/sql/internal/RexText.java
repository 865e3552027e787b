package io.tributary.scheduler.spec.sql.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * Writes a row expression of a relational plan as the text of a Tributary expression (see
 * {@code io.tributary.expr.Expressions}): input columns as double-quoted field names, every
 * operation parenthesised. Timestamps and day-time intervals are milliseconds, as records hold
 * them, so {@code ts - INTERVAL '10' SECOND} becomes {@code ("ts" - 10000)}.
 */
final class RexText {
  private final RexBuilder rex;
  private final IntFunction<String> field;

  /** @param field the expression reading input column i (a quoted field name) */
  RexText(RexBuilder rex, IntFunction<String> field) {
    this.rex = rex;
    this.field = field;
  }

  /**
   * The text of {@code node}.
   *
   * @throws Unsupported for an operation Tributary's expressions lack
   */
  String of(RexNode node) {
    RexNode n = RexUtil.expandSearch(rex, null, node);
    if (n instanceof RexInputRef ref) {
      return field.apply(ref.getIndex());
    }
    if (n instanceof RexLiteral literal) {
      return literal(literal);
    }
    if (n instanceof RexCall call) {
      return call(call);
    }
    throw new Unsupported("unsupported expression " + n, (String) null);
  }

  private String call(RexCall call) {
    List<RexNode> ops = call.getOperands();
    SqlKind kind = call.getKind();
    switch (kind) {
      case PLUS, MINUS, TIMES, DIVIDE:
        return binary(call, symbol(kind));
      case MOD:
        return "MOD(" + of(ops.get(0)) + ", " + of(ops.get(1)) + ")";
      case MINUS_PREFIX:
        return "(- " + of(ops.get(0)) + ")";
      case PLUS_PREFIX:
        return of(ops.get(0));
      case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL:
        return binary(call, call.getOperator().getName().equals("!=") ? "<>" : call.getOperator().getName());
      case AND, OR:
        return nary(ops, " " + kind.name() + " ");
      case NOT:
        return "(NOT " + of(ops.get(0)) + ")";
      case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE:
        return "(" + of(ops.get(0)) + " " + call.getOperator().getName() + ")";
      case IS_NOT_DISTINCT_FROM:
        return notDistinct(ops.get(0), ops.get(1));
      case LIKE:
        return like(call);
      case CASE:
        return caseWhen(ops);
      case CAST:
        return cast(call);
      case COALESCE, GREATEST, LEAST:
        return function(call.getOperator().getName(), ops);
      case TRIM:
        return trim(ops);
      case EXTRACT:
        return extract(ops);
      default:
        return named(call);
    }
  }

  private String named(RexCall call) {
    String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
    List<RexNode> ops = call.getOperands();
    switch (name) {
      case "||":
        return nary(ops, " || ");
      case "SUBSTRING":
        return "SUBSTRING(" + of(ops.get(0)) + " FROM " + of(ops.get(1))
            + (ops.size() > 2 ? " FOR " + of(ops.get(2)) : "") + ")";
      case "FLOOR", "CEIL":
        if (ops.size() != 1) {
          throw new Unsupported(name + " of a time unit is not supported; use arithmetic on milliseconds", name);
        }
        return function(name, ops);
      case "UPPER", "LOWER", "CHAR_LENGTH", "CHARACTER_LENGTH", "ABS", "ROUND", "CONCAT", "REPLACE",
          "REGEXP_EXTRACT", "SPLIT_INDEX", "DATE_FORMAT":
        return function(name, ops);
      default:
        throw new Unsupported("function " + call.getOperator().getName() + " is not supported by Tributary's "
            + "expressions", call.getOperator().getName());
    }
  }

  private String function(String name, List<RexNode> ops) {
    List<String> args = new ArrayList<>();
    for (RexNode op : ops) {
      args.add(of(op));
    }
    return name + "(" + String.join(", ", args) + ")";
  }

  private String binary(RexCall call, String op) {
    return "(" + of(call.getOperands().get(0)) + " " + op + " " + of(call.getOperands().get(1)) + ")";
  }

  private String nary(List<RexNode> ops, String separator) {
    List<String> parts = new ArrayList<>();
    for (RexNode op : ops) {
      parts.add(of(op));
    }
    return "(" + String.join(separator, parts) + ")";
  }

  private static String symbol(SqlKind kind) {
    return switch (kind) {
      case PLUS -> "+";
      case MINUS -> "-";
      case TIMES -> "*";
      default -> "/";
    };
  }

  private String notDistinct(RexNode a, RexNode b) {
    String x = of(a);
    String y = of(b);
    return "((" + x + " IS NULL AND " + y + " IS NULL) OR (" + x + " IS NOT NULL AND " + y + " IS NOT NULL AND "
        + x + " = " + y + "))";
  }

  private String like(RexCall call) {
    List<RexNode> ops = call.getOperands();
    String escape = ops.size() > 2 ? " ESCAPE " + of(ops.get(2)) : "";
    String not = call.getOperator().getName().toUpperCase(Locale.ROOT).startsWith("NOT") ? " NOT" : "";
    return "(" + of(ops.get(0)) + not + " LIKE " + of(ops.get(1)) + escape + ")";
  }

  private String caseWhen(List<RexNode> ops) {
    StringBuilder out = new StringBuilder("(CASE");
    for (int i = 0; i + 1 < ops.size(); i += 2) {
      out.append(" WHEN ").append(of(ops.get(i))).append(" THEN ").append(of(ops.get(i + 1)));
    }
    out.append(" ELSE ").append(of(ops.get(ops.size() - 1))).append(" END)");
    return out.toString();
  }

  /**
   * {@code EXTRACT(HOUR|MINUTE|SECOND FROM ts)} (and HOUR(ts), ...) of a timestamp, which is epoch
   * milliseconds: in UTC, for times since 1970.
   */
  private String extract(List<RexNode> ops) {
    String unit = ((RexLiteral) ops.get(0)).getValue().toString();
    if (!SqlTypeName.TIMESTAMP.equals(ops.get(1).getType().getSqlTypeName())) {
      throw new Unsupported("EXTRACT takes a TIMESTAMP", "EXTRACT");
    }
    String ts = of(ops.get(1));
    return switch (unit) {
      case "HOUR" -> "MOD((" + ts + " / 3600000), 24)";
      case "MINUTE" -> "MOD((" + ts + " / 60000), 60)";
      case "SECOND" -> "MOD((" + ts + " / 1000), 60)";
      default -> throw new Unsupported("EXTRACT of " + unit + " is not supported: HOUR, MINUTE and SECOND are; "
          + "DATE_FORMAT(ts, pattern) writes dates", unit);
    };
  }

  private String trim(List<RexNode> ops) {
    String flag = ((RexLiteral) ops.get(0)).getValue().toString();
    return "TRIM(" + flag + " " + of(ops.get(1)) + " FROM " + of(ops.get(2)) + ")";
  }

  private String cast(RexCall call) {
    RexNode operand = call.getOperands().get(0);
    RelDataType from = operand.getType();
    RelDataType to = call.getType();
    String target = runtimeType(to);
    if (target == null) {
      throw new Unsupported("CAST to " + to.getSqlTypeName() + " is not supported", SqlKind.CAST);
    }
    String source = runtimeType(from);
    if (target.equals(source)) {
      return of(operand);
    }
    if (target.equals("TIMESTAMP") || "TIMESTAMP".equals(source)) {
      throw new Unsupported("CAST between TIMESTAMP and " + (target.equals("TIMESTAMP") ? from : to).getSqlTypeName()
          + " is not supported (a TIMESTAMP is epoch milliseconds)", SqlKind.CAST);
    }
    return "CAST(" + of(operand) + " AS " + target + ")";
  }

  /** The type values of {@code type} have in records: BIGINT, DOUBLE, VARCHAR, BOOLEAN or TIMESTAMP; null if none. */
  static String runtimeType(RelDataType type) {
    SqlTypeName t = type.getSqlTypeName();
    if (SqlTypeName.INT_TYPES.contains(t)) {
      return "BIGINT";
    }
    if (SqlTypeName.APPROX_TYPES.contains(t) || t == SqlTypeName.DECIMAL) {
      return "DOUBLE";
    }
    if (SqlTypeFamily.CHARACTER.contains(type)) {
      return "VARCHAR";
    }
    if (t == SqlTypeName.BOOLEAN) {
      return "BOOLEAN";
    }
    if (t == SqlTypeName.TIMESTAMP || SqlTypeName.DAY_INTERVAL_TYPES.contains(t)) {
      return "TIMESTAMP";
    }
    return null;
  }

  private static String literal(RexLiteral literal) {
    if (literal.isNull()) {
      return "NULL";
    }
    SqlTypeName t = literal.getType().getSqlTypeName();
    if (t == SqlTypeName.BOOLEAN) {
      return Boolean.TRUE.equals(literal.getValueAs(Boolean.class)) ? "TRUE" : "FALSE";
    }
    if (SqlTypeName.CHAR_TYPES.contains(t)) {
      return "'" + literal.getValueAs(NlsString.class).getValue().replace("'", "''") + "'";
    }
    if (SqlTypeName.INT_TYPES.contains(t)) {
      return literal.getValueAs(BigDecimal.class).toBigInteger().toString();
    }
    if (t == SqlTypeName.DECIMAL || SqlTypeName.APPROX_TYPES.contains(t)) {
      BigDecimal d = literal.getValueAs(BigDecimal.class);
      String plain = d.stripTrailingZeros().toPlainString();
      return plain.contains(".") ? plain : plain + ".0";
    }
    if (SqlTypeName.DAY_INTERVAL_TYPES.contains(t) || t == SqlTypeName.TIMESTAMP) {
      return String.valueOf(literal.getValueAs(Long.class));
    }
    throw new Unsupported("literals of type " + t + " are not supported", SqlKind.LITERAL);
  }
}
