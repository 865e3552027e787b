package io.tributary.scheduler.spec.sql.internal;

import org.apache.calcite.sql.SqlKind;

/**
 * Something a statement asks for that Tributary cannot run. Thrown while translating relational
 * plans, which carry no positions: {@link #operator} (or {@link #kind}) names the SQL construct
 * whose first occurrence in the statement the error points at.
 */
final class Unsupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The name of the operator or function at fault, as SQL writes it; null if none. */
  final String operator;
  /** The kind of SQL node at fault; null if none. */
  final transient SqlKind kind;

  Unsupported(String message, String operator) {
    this(message, operator, null);
  }

  Unsupported(String message, SqlKind kind) {
    this(message, null, kind);
  }

  private Unsupported(String message, String operator, SqlKind kind) {
    super(message, null, false, false);
    this.operator = operator;
    this.kind = kind;
  }
}
