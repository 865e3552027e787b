package io.tributary.expr.internal;

import io.tributary.expr.ExpressionException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Parses expressions with Calcite's SQL parser: identifiers keep their case, may be double-quoted
 * or (if the text has no double-quoted identifier) back-quoted; {@code %} and {@code !=} are allowed.
 */
public final class Parsing {
  private static final SqlParser.Config DOUBLE_QUOTED =
      SqlParser.config()
          .withQuoting(Quoting.DOUBLE_QUOTE)
          .withQuotedCasing(Casing.UNCHANGED)
          .withUnquotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true)
          .withConformance(SqlConformanceEnum.LENIENT);
  private static final SqlParser.Config BACK_QUOTED = DOUBLE_QUOTED.withQuoting(Quoting.BACK_TICK);
  private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(\\w+)");

  private Parsing() {}

  /** Parses {@code sql} as one expression, or throws an ExpressionException saying where and why. */
  public static SqlNode parse(String sql) {
    if (sql == null || sql.isBlank()) {
      throw new ExpressionException("empty expression");
    }
    try {
      return SqlParser.create(sql, DOUBLE_QUOTED).parseExpression();
    } catch (SqlParseException e) {
      if (sql.indexOf('`') < 0) {
        throw translate(sql, e);
      }
    }
    try {
      return SqlParser.create(sql, BACK_QUOTED).parseExpression();
    } catch (SqlParseException e) {
      throw translate(sql, e);
    }
  }

  private static ExpressionException translate(String sql, SqlParseException e) {
    String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("").trim();
    StringBuilder msg = new StringBuilder("cannot parse `").append(sql).append("`: ").append(first);
    Matcher m = ENCOUNTERED.matcher(first);
    if (m.find() && isReserved(m.group(1))) {
      msg.append(" ('").append(m.group(1)).append("' is a SQL keyword; quote a field of that name: \"")
          .append(m.group(1)).append("\")");
    }
    return new ExpressionException(msg.toString(), e);
  }

  /** Whether {@code word} is a reserved SQL keyword (such as CURRENT_TIMESTAMP). */
  static boolean isReserved(String word) {
    return SqlParser.create("", DOUBLE_QUOTED).getMetadata().isReservedWord(word.toUpperCase(Locale.ROOT));
  }

  /** The source text of a parsed node, or its unparsed form when positions do not map. */
  static String text(String sql, SqlNode node) {
    SqlParserPos pos = node.getParserPosition();
    int start = offset(sql, pos.getLineNum(), pos.getColumnNum());
    int end = offset(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
    if (start < 0 || end <= start || end > sql.length()) {
      return node.toString();
    }
    return sql.substring(start, end);
  }

  /** "line 1, column 5" for a node. */
  static String where(SqlNode node) {
    SqlParserPos pos = node.getParserPosition();
    return "line " + pos.getLineNum() + ", column " + pos.getColumnNum();
  }

  private static int offset(String sql, int line, int column) {
    int off = 0;
    for (int l = 1; l < line; l++) {
      off = sql.indexOf('\n', off) + 1;
      if (off == 0) {
        return -1;
      }
    }
    return column < 1 ? -1 : off + column - 1;
  }
}
