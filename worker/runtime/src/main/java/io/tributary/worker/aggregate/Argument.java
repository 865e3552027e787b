package io.tributary.worker.aggregate;

import io.tributary.expr.CompiledExpression;
import io.tributary.expr.Expressions;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.regex.Pattern;

/**
 * Reads an aggregate's argument from a record. A plain field name (the common case) is read
 * directly by its position, cached per schema; anything else is a SQL expression compiled by
 * {@link Expressions#compile}. Not thread-safe: one instance per operator instance.
 */
abstract class Argument {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** The argument's value in {@code record}; may throw {@code ExpressionException}. */
  abstract Object read(Record record);

  static Argument of(String sql) {
    String s = sql.strip();
    if (IDENTIFIER.matcher(s).matches() && !isLiteralWord(s)) {
      return new Field(s);
    }
    return new Expression(Expressions.compile(sql));
  }

  private static boolean isLiteralWord(String s) {
    return s.equalsIgnoreCase("null") || s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false");
  }

  /** A field read by position; a missing field reads as null. */
  private static final class Field extends Argument {
    private final String name;
    private Schema schema;
    private int index;

    Field(String name) {
      this.name = name;
    }

    @Override
    Object read(Record record) {
      if (record.schema() != schema) {
        schema = record.schema();
        index = schema.indexOf(name);
      }
      return index < 0 ? null : record.values()[index];
    }
  }

  private static final class Expression extends Argument {
    private final CompiledExpression expression;

    Expression(CompiledExpression expression) {
      this.expression = expression;
    }

    @Override
    Object read(Record record) {
      return expression.eval(record);
    }
  }
}
