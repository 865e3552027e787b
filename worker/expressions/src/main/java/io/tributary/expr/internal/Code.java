package io.tributary.expr.internal;

/**
 * Generated Java for one sub-expression: an expression of Java type Object (or a subtype).
 *
 * @param java the Java expression text
 * @param type the static SQL type
 * @param literal the value when the sub-expression is a non-null literal, else null
 */
record Code(String java, Type type, Object literal) {
  Code(String java, Type type) {
    this(java, type, null);
  }

  boolean isNumberLiteral() {
    return literal instanceof Long || literal instanceof Double;
  }

  /** The Java primitive literal for a number literal: {@code 12L} or {@code 0.5d}. */
  String primitive() {
    return literal instanceof Long ? literal + "L" : literal + "d";
  }

  /** "BIGINT 12", "VARCHAR 'x'" or "BIGINT" for messages. */
  String describe() {
    String name = type.isNumeric() ? (type == Type.NUMERIC ? "number" : type.name()) : type.name();
    return literal == null ? name : Values.describe(literal);
  }
}
