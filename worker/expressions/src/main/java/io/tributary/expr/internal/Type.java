package io.tributary.expr.internal;

/**
 * The static type of a sub-expression, as far as it is known before seeing records. Fields are
 * {@link #ANY}: their runtime values decide, and are checked per record.
 */
enum Type {
  BOOLEAN("BOOLEAN"),
  BIGINT("number"),
  DOUBLE("number"),
  /** A number whose BIGINT-or-DOUBLE kind depends on field values. */
  NUMERIC("number"),
  VARCHAR("VARCHAR"),
  NULL(null),
  ANY(null);

  private final String category;

  Type(String category) {
    this.category = category;
  }

  /** "number", "VARCHAR", "BOOLEAN", or null when unknown (ANY, NULL). */
  String category() {
    return category;
  }

  boolean isNumeric() {
    return "number".equals(category);
  }

  /** Whether a value of this type may be used where {@code category} is needed. */
  boolean fits(String wanted) {
    return category == null || category.equals(wanted);
  }

  /** Whether two types may be compared or mixed (unknown types always may). */
  boolean compatible(Type other) {
    return category == null || other.category == null || category.equals(other.category);
  }

  /** The type of {@code a op b} for an arithmetic operator. */
  static Type arithmetic(Type a, Type b) {
    if (a == NULL || b == NULL) {
      return NULL;
    } else if (a == BIGINT && b == BIGINT) {
      return BIGINT;
    } else if (a == DOUBLE || b == DOUBLE) {
      return DOUBLE;
    }
    return NUMERIC;
  }
}
