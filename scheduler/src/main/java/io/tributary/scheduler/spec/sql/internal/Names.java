package io.tributary.scheduler.spec.sql.internal;

import io.tributary.scheduler.spec.internal.Suggestions;
import java.util.Collection;
import org.apache.calcite.sql.SqlIdentifier;

/** Names in a SQL job's statements. */
final class Names {
  private Names() {}

  /**
   * The name of a simple identifier.
   *
   * @throws SqlProblem for a compound one ({@code a.b})
   */
  static String simple(SqlIdentifier id, String what) {
    if (!id.isSimple()) {
      throw new SqlProblem(id.getParserPosition(), what + " is one name, not " + id);
    }
    return id.getSimple();
  }

  /** {@code "; did you mean 'x'?"} or {@code ""}. */
  static String hint(String wrong, Collection<String> candidates) {
    return Suggestions.hint(wrong, candidates);
  }

  /** {@code name} as an identifier of an expression: double-quoted, inner quotes doubled. */
  static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /** The name {@code expr} is when it is one quoted identifier ({@link #quote}), else null. */
  static String unquote(String expr) {
    if (expr.length() < 2 || expr.charAt(0) != '"' || expr.charAt(expr.length() - 1) != '"') {
      return null;
    }
    String inner = expr.substring(1, expr.length() - 1);
    return inner.replace("\"\"", "").contains("\"") ? null : inner.replace("\"\"", "\"");
  }
}
