package io.tributary.expr.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlTrimFunction;

/** Generates IN, LIKE, CAST and the named functions for {@link Generator}. */
final class FunctionGenerator {
  private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");
  private final Generator g;

  FunctionGenerator(Generator g) {
    this.g = g;
  }

  Code gen(SqlCall call) {
    switch (call.getKind()) {
      case IN:
        return in(call, false);
      case NOT_IN:
        return in(call, true);
      case LIKE:
        return like(call);
      case CAST:
        return cast(call);
      case TRIM:
        return trim(call);
      case FLOOR:
      case CEIL:
        return floorCeil(call);
      default:
        return named(call, call.getOperator().getName().toUpperCase(Locale.ROOT));
    }
  }

  private Code named(SqlCall call, String name) {
    switch (name) {
      case "||":
      case "CONCAT":
        return concat(call, name);
      case "UPPER":
        return string(call, name, "Strings.upper", Type.VARCHAR);
      case "LOWER":
        return string(call, name, "Strings.lower", Type.VARCHAR);
      case "CHAR_LENGTH":
      case "CHARACTER_LENGTH":
        return string(call, name, "Strings.charLength", Type.BIGINT);
      case "SUBSTRING":
        return substring(call);
      case "ABS":
        return numeric(call, name, 1, 1, "Funcs.abs");
      case "ROUND":
        return numeric(call, name, 1, 2, "Funcs.round");
      case "MOD":
        return numeric(call, name, 2, 2, "Arith.mod");
      case "COALESCE":
        return coalesce(call);
      case "REPLACE":
        return typed(call, name, "TextFunctions.replace", Type.VARCHAR, "VARCHAR", "VARCHAR", "VARCHAR");
      case "SPLIT_INDEX":
        return typed(call, name, "TextFunctions.splitIndex", Type.VARCHAR, "VARCHAR", "VARCHAR", "number");
      case "DATE_FORMAT":
        return typed(call, name, "TextFunctions.dateFormat", Type.VARCHAR, "number", "VARCHAR");
      case "REGEXP_EXTRACT":
        return regexpExtract(call);
      case "GREATEST":
        return extreme(call, name, "Funcs.greatest");
      case "LEAST":
        return extreme(call, name, "Funcs.least");
      default:
        if (AGGREGATES.contains(name)) {
          throw g.error(call, "aggregate function " + name + " is not allowed here");
        }
        boolean function = call.getKind() == SqlKind.OTHER_FUNCTION;
        throw g.error(call, "unsupported " + (function ? "function " : "operator ") + name);
    }
  }

  private void arity(SqlCall call, String name, int min, int max) {
    int n = call.operandCount();
    if (n < min || n > max) {
      String expected = min == max ? String.valueOf(min) : max == Integer.MAX_VALUE ? min + " or more" : min + " to " + max;
      throw g.error(call, name + " takes " + expected + " argument(s), got " + n);
    }
  }

  private List<Code> args(SqlCall call, String name, String category) {
    List<Code> codes = new ArrayList<>();
    for (SqlNode operand : call.getOperandList()) {
      Code c = g.gen(operand);
      if (category != null) {
        g.require(operand, c, category, name);
      }
      codes.add(c);
    }
    return codes;
  }

  private static String join(List<Code> codes) {
    StringBuilder sb = new StringBuilder();
    for (Code c : codes) {
      sb.append(sb.length() == 0 ? "" : ", ").append(c.java());
    }
    return sb.toString();
  }

  private Code string(SqlCall call, String name, String method, Type result) {
    arity(call, name, 1, 1);
    return new Code(method + "(" + join(args(call, name, "VARCHAR")) + ")", result);
  }

  /** A function of fixed arity whose operands must fit {@code categories}, in order. */
  private Code typed(SqlCall call, String name, String method, Type result, String... categories) {
    arity(call, name, categories.length, categories.length);
    List<Code> args = args(call, name, null);
    for (int i = 0; i < categories.length; i++) {
      g.require(call.operand(i), args.get(i), categories[i], name);
    }
    return new Code(method + "(" + join(args) + ")", result);
  }

  private Code regexpExtract(SqlCall call) {
    arity(call, "REGEXP_EXTRACT", 2, 3);
    if (call.operandCount() == 2) {
      List<Code> args = args(call, "REGEXP_EXTRACT", "VARCHAR");
      return new Code("TextFunctions.regexpExtract(" + join(args) + ", Long.valueOf(0L))", Type.VARCHAR);
    }
    return typed(call, "REGEXP_EXTRACT", "TextFunctions.regexpExtract", Type.VARCHAR, "VARCHAR", "VARCHAR", "number");
  }

  private Code numeric(SqlCall call, String name, int min, int max, String method) {
    arity(call, name, min, max);
    List<Code> args = args(call, name, "number");
    Type type = args.size() == 2 && method.startsWith("Arith")
        ? Type.arithmetic(args.get(0).type(), args.get(1).type()) : args.get(0).type();
    return new Code(method + "(" + join(args) + ")", type);
  }

  private Code concat(SqlCall call, String name) {
    arity(call, name, 1, Integer.MAX_VALUE);
    List<Code> args = args(call, name, "VARCHAR");
    String java = args.size() == 1 ? "Strings.concat(" + args.get(0).java() + ", \"\")" : args.get(0).java();
    for (int i = 1; i < args.size(); i++) {
      java = "Strings.concat(" + java + ", " + args.get(i).java() + ")";
    }
    return new Code(java, Type.VARCHAR);
  }

  private Code substring(SqlCall call) {
    arity(call, "SUBSTRING", 2, 3);
    List<Code> args = args(call, "SUBSTRING", null);
    g.require(call.operand(0), args.get(0), "VARCHAR", "SUBSTRING");
    for (int i = 1; i < args.size(); i++) {
      g.require(call.operand(i), args.get(i), "number", "SUBSTRING");
    }
    return new Code("Strings.substring(" + join(args) + ")", Type.VARCHAR);
  }

  private Code trim(SqlCall call) {
    SqlTrimFunction.Flag flag = ((SqlLiteral) call.operand(0)).getValueAs(SqlTrimFunction.Flag.class);
    Code chars = g.gen(call.operand(1));
    Code s = g.gen(call.operand(2));
    g.require(call.operand(1), chars, "VARCHAR", "TRIM");
    g.require(call.operand(2), s, "VARCHAR", "TRIM");
    boolean leading = flag != SqlTrimFunction.Flag.TRAILING;
    boolean trailing = flag != SqlTrimFunction.Flag.LEADING;
    return new Code("Strings.trim(" + s.java() + ", " + chars.java() + ", " + leading + ", " + trailing + ")", Type.VARCHAR);
  }

  private Code floorCeil(SqlCall call) {
    String name = call.getKind().name();
    if (call.operandCount() != 1) {
      throw g.error(call, name + " ... TO <time unit> is not supported");
    }
    return numeric(call, name, 1, 1, name.equals("FLOOR") ? "Funcs.floor" : "Funcs.ceil");
  }

  private Code coalesce(SqlCall call) {
    arity(call, "COALESCE", 1, Integer.MAX_VALUE);
    List<Code> args = args(call, "COALESCE", null);
    Type type = g.unify(call, args, call.getOperandList());
    String java = g.cast(args.get(args.size() - 1), type);
    for (int i = args.size() - 2; i >= 0; i--) {
      String t = g.temp();
      java = "((" + t + " = " + g.cast(args.get(i), type) + ") != null ? " + t + " : " + java + ")";
    }
    return new Code(java, type);
  }

  private Code extreme(SqlCall call, String name, String method) {
    arity(call, name, 1, Integer.MAX_VALUE);
    List<Code> args = args(call, name, null);
    Type type = g.unify(call, args, call.getOperandList());
    return new Code(method + "(new Object[] {" + join(args) + "})", type);
  }

  private Code in(SqlCall call, boolean negated) {
    Code x = g.gen(call.operand(0));
    if (!(call.operand(1) instanceof SqlNodeList)) {
      throw g.error(call, "IN needs a list of literals");
    }
    List<Object> values = new ArrayList<>();
    Code seen = x;
    for (SqlNode item : (SqlNodeList) call.operand(1)) {
      Code c = item instanceof SqlLiteral ? g.literal((SqlLiteral) item) : constantNegation(item);
      g.checkComparable(item, seen, c);
      seen = c.type() == Type.NULL ? seen : c;
      values.add(c.literal());
    }
    String list = g.constant(new InList(values), "InList");
    String java = list + ".contains(" + x.java() + ")";
    return new Code(negated ? "Logic.not(" + java + ")" : java, Type.BOOLEAN);
  }

  /** A negative number in a literal list ({@code -1} that the parser kept as a call). */
  private Code constantNegation(SqlNode item) {
    if (item.getKind() == SqlKind.MINUS_PREFIX && ((SqlCall) item).operand(0) instanceof SqlLiteral) {
      Code c = g.gen(item);
      if (c.literal() != null) {
        return c;
      }
    }
    throw g.error(item, "IN list may only contain literals");
  }

  private Code like(SqlCall call) {
    boolean negated = ((SqlLikeOperator) call.getOperator()).isNegated();
    if (call.getOperator().getName().toUpperCase(Locale.ROOT).contains("ILIKE")) {
      throw g.error(call, "unsupported operator " + call.getOperator().getName());
    }
    List<Code> args = args(call, "LIKE", "VARCHAR");
    String java;
    Code pattern = args.get(1);
    Code escape = args.size() > 2 ? args.get(2) : null;
    if (pattern.literal() != null && (escape == null || escape.literal() != null)) {
      try {
        LikePattern p = LikePattern.compile((String) pattern.literal(), escape == null ? null : (String) escape.literal());
        java = "Strings.like(" + args.get(0).java() + ", " + g.constant(p, "LikePattern") + ")";
      } catch (IllegalArgumentException e) {
        throw g.error(call, e.getMessage());
      }
    } else {
      String esc = escape == null ? "((Object) null)" : escape.java();
      java = "Strings.like(" + args.get(0).java() + ", " + pattern.java() + ", " + esc + ")";
    }
    return new Code(negated ? "Logic.not(" + java + ")" : java, Type.BOOLEAN);
  }

  private Code cast(SqlCall call) {
    Code x = g.gen(call.operand(0));
    SqlDataTypeSpec spec = (SqlDataTypeSpec) call.operand(1);
    String target = spec.getTypeNameSpec().getTypeName().getSimple().toUpperCase(Locale.ROOT);
    switch (target) {
      case "BIGINT":
        return new Code("Casts.toBigint(" + x.java() + ")", Type.BIGINT);
      case "INTEGER":
      case "INT":
        return new Code("Casts.toInteger(" + x.java() + ")", Type.BIGINT);
      case "DOUBLE":
      case "DECIMAL":
      case "NUMERIC":
      case "FLOAT":
      case "REAL":
        return new Code("Casts.toDouble(" + x.java() + ")", Type.DOUBLE);
      case "VARCHAR":
      case "CHAR":
      case "STRING":
        return new Code("Casts.toVarchar(" + x.java() + ")", Type.VARCHAR);
      case "BOOLEAN":
        return new Code("Casts.toBoolean(" + x.java() + ")", Type.BOOLEAN);
      default:
        throw g.error(call, "unsupported CAST target type " + target
            + " (supported: BIGINT, INTEGER, DOUBLE, DECIMAL, VARCHAR, BOOLEAN)");
    }
  }
}
