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
  private static final Pattern ENCOUNTERED_TOKENS = Pattern.compile("Encountered \"([^\"]*)\"");

  private Parsing() {}

  /**
   * Parses {@code sql} as one expression, or throws an ExpressionException saying where and why.
   *
   * <p>Field names that happen to be SQL keywords ({@code user}, {@code dateTime}, {@code value})
   * may be written unquoted as long as they are not all upper case: such a word is quoted for the
   * parser and read as a field. Upper-case keywords keep their SQL meaning.
   */
  public static SqlNode parse(String sql) {
    if (sql == null || sql.isBlank()) {
      throw new ExpressionException("empty expression");
    }
    Limits.check(sql);
    String text = sql;
    for (int attempt = 0; attempt < 32; attempt++) {
      String quoted;
      try {
        SqlNode node = parseAsWritten(text);
        quoted = quoteKeywordFields(text, node);
        if (quoted == null) {
          return node;
        }
      } catch (ExpressionException e) {
        quoted = e.getCause() instanceof SqlParseException pe ? quoteOffendingWord(text, pe) : null;
        if (quoted == null) {
          throw text.equals(sql) ? e : translate(sql, (SqlParseException) e.getCause());
        }
      }
      text = quoted;
    }
    return parseAsWritten(text);
  }

  /** The text with the lower- or mixed-case keyword the parser stumbled on quoted, or null. */
  private static String quoteOffendingWord(String text, SqlParseException e) {
    if (e.getPos() == null) {
      return null;
    }
    int at = offset(text, e.getPos().getLineNum(), e.getPos().getColumnNum());
    Matcher m = ENCOUNTERED_TOKENS.matcher(String.valueOf(e.getMessage()));
    if (m.find()) {
      int from = Math.max(0, at);
      for (String token : m.group(1).split("\\s+")) {
        if (!token.matches("[A-Za-z_][A-Za-z0-9_]*")) {
          continue; // punctuation, such as the dot of a qualified name (l.value)
        }
        int i = indexOfWord(text, token, from);
        if (i < 0) {
          break;
        }
        if (isFieldLike(token)) {
          return quoteAt(text, i, token);
        }
        from = i + token.length();
      }
    }
    // a keyword that needs an argument (TIMESTAMP '...') stumbles on the token after it
    int end = at;
    while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    int start = end;
    while (start > 0 && (Character.isLetterOrDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '_')) {
      start--;
    }
    String word = text.substring(start, end);
    return start < end && isFieldLike(word) && (start == 0 || text.charAt(start - 1) != '"')
        ? quoteAt(text, start, word) : null;
  }

  /** The text with unquoted keyword identifiers (parsed as fields, such as {@code user}) quoted, or null. */
  private static String quoteKeywordFields(String text, SqlNode node) {
    java.util.List<org.apache.calcite.sql.SqlIdentifier> ids = new java.util.ArrayList<>();
    node.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
      @Override
      public Void visit(org.apache.calcite.sql.SqlIdentifier id) {
        if (id.isSimple() && !id.isComponentQuoted(0)) {
          ids.add(id);
        }
        return null;
      }
    });
    for (org.apache.calcite.sql.SqlIdentifier id : ids) {
      String written = text(text, id);
      if (isReserved(written) && isFieldLike(written)) {
        int start = offset(text, id.getParserPosition().getLineNum(), id.getParserPosition().getColumnNum());
        String quoted = quoteAt(text, start, written);
        if (quoted != null) {
          return quoted;
        }
      }
    }
    return null;
  }

  /** Where {@code word} stands as a whole word in {@code text} at or after {@code from}, or -1. */
  private static int indexOfWord(String text, String word, int from) {
    for (int i = text.indexOf(word, from); i >= 0; i = text.indexOf(word, i + 1)) {
      boolean before = i == 0 || !isWordChar(text.charAt(i - 1));
      int end = i + word.length();
      boolean after = end >= text.length() || !isWordChar(text.charAt(end));
      if (before && after) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '"' || c == '`';
  }

  private static boolean isFieldLike(String word) {
    return isReserved(word) && !word.equals(word.toUpperCase(Locale.ROOT)) && word.matches("[A-Za-z_][A-Za-z0-9_]*");
  }

  private static String quoteAt(String text, int start, String word) {
    if (start < 0 || !text.startsWith(word, start)) {
      return null;
    }
    char q = text.indexOf('`') >= 0 && text.indexOf('"') < 0 ? '`' : '"';
    return text.substring(0, start) + q + word + q + text.substring(start + word.length());
  }

  private static SqlNode parseAsWritten(String sql) {
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
