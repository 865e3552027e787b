package io.tributary.scheduler.spec.sql.internal.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code SET 'key' = 'value'} (Flink's SQL client's form) as Calcite's {@link SqlSetOption}, whose
 * name is the key as one identifier: both forms of SET reach the compiler alike.
 */
public final class SqlSetQuoted {
  private SqlSetQuoted() {}

  /** @param key a string literal; @param value a literal */
  public static SqlSetOption of(SqlParserPos pos, SqlNode key, SqlNode value) {
    return new SqlSetOption(pos, null, new SqlIdentifier(SqlLiterals.text(key), key.getParserPosition()), value);
  }
}
