package io.tributary.scheduler.spec.sql.internal.parser;

import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

/** Reading the text of literals written in DDL. */
public final class SqlLiterals {
  private SqlLiterals() {}

  /**
   * A string literal's content (the parts of a literal written in pieces joined), or a number's or
   * boolean's text as written; the node's SQL text for anything else.
   */
  public static String text(SqlNode node) {
    if (node instanceof SqlCharStringLiteral s) {
      return s.getValueAs(String.class);
    }
    if (node instanceof SqlLiteral l) {
      if (l.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR) {
        return l.getValueAs(String.class);
      }
      return l.toValue();
    }
    if (node instanceof org.apache.calcite.sql.SqlBasicCall call
        && call.getOperator().getKind() == org.apache.calcite.sql.SqlKind.LITERAL_CHAIN) {
      return SqlLiteral.unchain(call).getValueAs(String.class);
    }
    return node.toString();
  }
}
