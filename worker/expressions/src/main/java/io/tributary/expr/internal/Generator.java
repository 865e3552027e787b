package io.tributary.expr.internal;

import io.tributary.expr.ExpressionException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Turns a parsed expression into one Java expression over {@code Object[] v} (the record's
 * values), checking operand types that are known statically. Collects the referenced fields,
 * the constants and the temporaries that the generated class declares. Operators live here;
 * named functions in {@link FunctionGenerator}.
 */
final class Generator {
  final String sql;
  final List<String> fields = new ArrayList<>();
  final List<Object> constants = new ArrayList<>();
  final List<String> constantTypes = new ArrayList<>();
  int temps;
  /** Janino refuses deeper nesting than somewhat above this. */
  private static final int MAX_DEPTH = 100;
  private int depth;
  private final FunctionGenerator functions = new FunctionGenerator(this);

  Generator(String sql) {
    this.sql = sql;
  }

  Code gen(SqlNode node) {
    if (++depth > MAX_DEPTH) {
      throw error(node, "expression is nested too deeply (more than " + MAX_DEPTH
          + " levels; for long lists of alternatives use IN (...))");
    }
    try {
      return dispatch(node);
    } finally {
      depth--;
    }
  }

  private Code dispatch(SqlNode node) {
    if (node instanceof SqlIdentifier) {
      return field((SqlIdentifier) node);
    } else if (node instanceof SqlLiteral) {
      return literal((SqlLiteral) node);
    } else if (node instanceof SqlCase) {
      return caseWhen((SqlCase) node);
    } else if (node instanceof SqlCall) {
      return call((SqlCall) node);
    }
    throw error(node, "unsupported syntax");
  }

  ExpressionException error(SqlNode node, String message) {
    return new ExpressionException(
        message + " in `" + Parsing.text(sql, node) + "` (" + Parsing.where(node) + ") of `" + sql + "`");
  }

  /** Registers a constant and returns the name of the field that holds it. */
  String constant(Object value, String javaType) {
    constants.add(value);
    constantTypes.add(javaType);
    return "k" + (constants.size() - 1);
  }

  String temp() {
    return "t" + temps++;
  }

  /** Checks that {@code code} may be used where {@code category} is needed. */
  void require(SqlNode node, Code code, String category, String what) {
    if (!code.type().fits(category)) {
      throw error(node, what + " needs " + ("number".equals(category) ? "a number" : "a " + category)
          + ", got " + code.describe());
    }
  }

  private Code field(SqlIdentifier id) {
    if (id.isStar()) {
      throw error(id, "'*' is only allowed in count(*)");
    } else if (id.names.size() > 2) {
      throw error(id, "nested field '" + String.join(".", id.names) + "' is not supported");
    }
    // a qualified name (a join's l.price) reads the field of that whole name
    String name = String.join(".", id.names);
    if (id.isSimple() && !id.isComponentQuoted(0) && Parsing.isReserved(name)) {
      throw error(id, "unsupported function " + name.toUpperCase(java.util.Locale.ROOT)
          + " (quote a field of that name: \"" + name + "\")");
    }
    int k = fields.indexOf(name);
    if (k < 0) {
      fields.add(name);
      k = fields.size() - 1;
    }
    return new Code("(i" + k + " < 0 ? null : v[i" + k + "])", Type.ANY);
  }

  Code literal(SqlLiteral lit) {
    SqlTypeName t = lit.getTypeName();
    if (t == SqlTypeName.NULL) {
      return new Code("((Object) null)", Type.NULL);
    } else if (t == SqlTypeName.BOOLEAN) {
      boolean b = lit.booleanValue();
      return new Code(b ? "Boolean.TRUE" : "Boolean.FALSE", Type.BOOLEAN, b);
    } else if (lit instanceof SqlNumericLiteral) {
      return number(lit, number((SqlNumericLiteral) lit));
    } else if (lit instanceof SqlCharStringLiteral) {
      String s = lit.getValueAs(String.class);
      return new Code(constant(s, "String"), Type.VARCHAR, s);
    }
    throw error(lit, "unsupported literal of type " + t);
  }

  Code number(SqlNode node, Object value) {
    if (value instanceof Long) {
      return new Code(constant(value, "Long"), Type.BIGINT, value);
    }
    return new Code(constant(value, "Double"), Type.DOUBLE, value);
  }

  private Object number(SqlNumericLiteral lit) {
    BigDecimal value = lit.getValueAs(BigDecimal.class);
    if (lit.isExact() && value.scale() <= 0) {
      try {
        return value.longValueExact();
      } catch (ArithmeticException e) {
        throw error(lit, "integer literal out of BIGINT range");
      }
    }
    double d = value.doubleValue();
    if (Double.isInfinite(d)) {
      throw error(lit, "numeric literal out of DOUBLE range");
    }
    return d;
  }

  private Code call(SqlCall call) {
    if (call instanceof SqlBasicCall && ((SqlBasicCall) call).getFunctionQuantifier() != null) {
      throw error(call, "DISTINCT/ALL is only allowed in aggregates, and not supported there");
    }
    switch (call.getKind()) {
      case PLUS:
        return arithmetic(call, "add", "+", true);
      case MINUS:
        return arithmetic(call, "sub", "-", false);
      case TIMES:
        return arithmetic(call, "mul", "*", true);
      case DIVIDE:
        return arithmetic(call, "div", "/", false);
      case MOD:
        return arithmetic(call, "mod", "%", false);
      case MINUS_PREFIX:
        return negate(call);
      case PLUS_PREFIX:
        return unaryPlus(call);
      case EQUALS:
        return compare(call, "eq", "eq");
      case NOT_EQUALS:
        return compare(call, "ne", "ne");
      case LESS_THAN:
        return compare(call, "lt", "gt");
      case LESS_THAN_OR_EQUAL:
        return compare(call, "le", "ge");
      case GREATER_THAN:
        return compare(call, "gt", "lt");
      case GREATER_THAN_OR_EQUAL:
        return compare(call, "ge", "le");
      default:
        return logical(call);
    }
  }

  private Code logical(SqlCall call) {
    switch (call.getKind()) {
      case AND:
        return junction(call, "and", "FALSE");
      case OR:
        return junction(call, "or", "TRUE");
      case NOT:
        return new Code("Logic.not(" + bool(call.operand(0), "NOT").java() + ")", Type.BOOLEAN);
      case IS_NULL:
        return new Code("(" + gen(call.operand(0)).java() + " == null ? Boolean.TRUE : Boolean.FALSE)", Type.BOOLEAN);
      case IS_NOT_NULL:
        return new Code("(" + gen(call.operand(0)).java() + " != null ? Boolean.TRUE : Boolean.FALSE)", Type.BOOLEAN);
      case IS_TRUE:
        return new Code("Logic.isTrue(" + bool(call.operand(0), "IS TRUE").java() + ")", Type.BOOLEAN);
      case IS_NOT_TRUE:
        return new Code("Logic.not(Logic.isTrue(" + bool(call.operand(0), "IS NOT TRUE").java() + "))", Type.BOOLEAN);
      case IS_FALSE:
        return new Code("Logic.isFalse(" + bool(call.operand(0), "IS FALSE").java() + ")", Type.BOOLEAN);
      case IS_NOT_FALSE:
        return new Code("Logic.not(Logic.isFalse(" + bool(call.operand(0), "IS NOT FALSE").java() + "))", Type.BOOLEAN);
      case BETWEEN:
        return between(call);
      default:
        return functions.gen(call);
    }
  }

  Code bool(SqlNode node, String what) {
    Code c = gen(node);
    require(node, c, "BOOLEAN", what);
    return c;
  }

  private Code arithmetic(SqlCall call, String method, String op, boolean commutative) {
    if (call.operandCount() != 2) {
      throw error(call, "'" + op + "' takes 2 operands, got " + call.operandCount());
    }
    Code a = gen(call.operand(0));
    Code b = gen(call.operand(1));
    require(call.operand(0), a, "number", "'" + op + "'");
    require(call.operand(1), b, "number", "'" + op + "'");
    Type type = Type.arithmetic(a.type(), b.type());
    if (commutative && a.isNumberLiteral() && !b.isNumberLiteral()) {
      Code swap = a;
      a = b;
      b = swap;
    }
    String right = b.isNumberLiteral() ? b.primitive() : b.java();
    return new Code("Arith." + method + "(" + a.java() + ", " + right + ")", type);
  }

  private Code negate(SqlCall call) {
    Code a = gen(call.operand(0));
    require(call.operand(0), a, "number", "unary '-'");
    if (a.literal() instanceof Long && (Long) a.literal() != Long.MIN_VALUE) {
      return number(call, -(Long) a.literal());
    } else if (a.literal() instanceof Double) {
      return number(call, -(Double) a.literal());
    }
    return new Code("Arith.neg(" + a.java() + ")", a.type());
  }

  private Code unaryPlus(SqlCall call) {
    Code a = gen(call.operand(0));
    require(call.operand(0), a, "number", "unary '+'");
    return a;
  }

  private Code compare(SqlCall call, String method, String flipped) {
    Code a = gen(call.operand(0));
    Code b = gen(call.operand(1));
    checkComparable(call, a, b);
    if (b.isNumberLiteral()) {
      return new Code("Compare." + method + "(" + a.java() + ", " + b.primitive() + ")", Type.BOOLEAN);
    } else if (a.isNumberLiteral()) {
      return new Code("Compare." + flipped + "(" + b.java() + ", " + a.primitive() + ")", Type.BOOLEAN);
    }
    return new Code("Compare." + method + "(" + a.java() + ", " + b.java() + ")", Type.BOOLEAN);
  }

  void checkComparable(SqlNode node, Code a, Code b) {
    if (!a.type().compatible(b.type())) {
      throw error(node, "cannot compare " + a.describe() + " with " + b.describe());
    }
  }

  /** AND / OR with short-circuit: the right side is not evaluated when the left decides. */
  private Code junction(SqlCall call, String method, String decisive) {
    String what = method.toUpperCase(java.util.Locale.ROOT);
    String java = bool(call.operand(0), what).java();
    for (int i = 1; i < call.operandCount(); i++) {
      String right = bool(call.operand(i), what).java();
      String t = temp();
      java = "((" + t + " = " + java + ") == Boolean." + decisive + " ? Boolean." + decisive
          + " : Logic." + method + "(" + t + ", " + right + "))";
    }
    return new Code(java, Type.BOOLEAN);
  }

  private Code between(SqlCall call) {
    SqlBetweenOperator op = (SqlBetweenOperator) call.getOperator();
    Code x = gen(call.operand(0));
    Code lo = gen(call.operand(1));
    Code hi = gen(call.operand(2));
    checkComparable(call, x, lo);
    checkComparable(call, x, hi);
    boolean symmetric = op.flag == SqlBetweenOperator.Flag.SYMMETRIC;
    String java = "Compare.between(" + x.java() + ", " + lo.java() + ", " + hi.java() + ", " + symmetric + ")";
    return new Code(op.isNegated() ? "Logic.not(" + java + ")" : java, Type.BOOLEAN);
  }

  private Code caseWhen(SqlCase c) {
    SqlNodeList whens = c.getWhenOperands();
    SqlNodeList thens = c.getThenOperands();
    List<Code> results = new ArrayList<>();
    List<SqlNode> nodes = new ArrayList<>(thens.getList());
    for (SqlNode then : thens) {
      results.add(gen(then));
    }
    SqlNode elseNode = c.getElseOperand();
    results.add(elseNode == null ? new Code("((Object) null)", Type.NULL) : gen(elseNode));
    nodes.add(elseNode == null ? c : elseNode);
    Type type = unify(c, results, nodes);
    String java = cast(results.get(results.size() - 1), type);
    for (int i = whens.size() - 1; i >= 0; i--) {
      String cond = bool(whens.get(i), "WHEN").java();
      java = "(Logic.holds(" + cond + ") ? " + cast(results.get(i), type) + " : " + java + ")";
    }
    return new Code(java, type);
  }

  /** The common type of CASE/COALESCE branches; BIGINT branches are widened when one is DOUBLE. */
  Type unify(SqlNode node, List<Code> codes, List<SqlNode> nodes) {
    Type type = Type.NULL;
    for (int i = 0; i < codes.size(); i++) {
      Type t = codes.get(i).type();
      if (!type.compatible(t)) {
        throw error(nodes.get(i), "incompatible types " + type + " and " + t);
      } else if (type == Type.NULL || type == t) {
        type = t;
      } else if (type.isNumeric() && t.isNumeric()) {
        type = type == Type.NUMERIC || t == Type.NUMERIC ? Type.NUMERIC : Type.DOUBLE;
      } else if (t != Type.NULL) {
        type = Type.ANY;
      }
    }
    return type;
  }

  String cast(Code code, Type type) {
    if (type == Type.DOUBLE && code.type() == Type.BIGINT) {
      return "((Object) Casts.toDouble(" + code.java() + "))";
    }
    return "((Object) " + code.java() + ")";
  }
}
