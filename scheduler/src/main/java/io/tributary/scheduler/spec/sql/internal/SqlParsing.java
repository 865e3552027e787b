package io.tributary.scheduler.spec.sql.internal;

import io.tributary.scheduler.spec.sql.internal.parser.impl.TributarySqlParserImpl;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Parses a SQL job with Calcite's parser as Tributary's build extends it (see the scheduler's
 * {@code src/main/codegen}). The dialect is Flink SQL's: identifiers are case-sensitive and keep
 * their case, quoted with back-ticks ({@code `value`}); strings take single quotes.
 */
public final class SqlParsing {
  /** The parser's settings, shared by every parse of a job's text. */
  public static final SqlParser.Config CONFIG = SqlParser.config()
      .withParserFactory(TributarySqlParserImpl.FACTORY)
      .withQuoting(Quoting.BACK_TICK)
      .withUnquotedCasing(Casing.UNCHANGED)
      .withQuotedCasing(Casing.UNCHANGED)
      .withCaseSensitive(true)
      .withConformance(SqlConformanceEnum.LENIENT);

  private static final Pattern NEAR_KEYWORD = Pattern.compile("Incorrect syntax near the keyword '(\\w+)'");
  private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*?)\" at line \\d+, column \\d+\\.");
  private static final int MAX_EXPECTED = 8;

  /** The message of a text whose nesting overflowed the parser's stack. */
  static final String TOO_DEEP = "the text nests too deeply to parse (parentheses within parentheses); write it "
      + "flatter, with views";

  private SqlParsing() {}

  /**
   * The statements of {@code sql}, separated by semicolons.
   *
   * @throws SqlProblem at the first syntax error
   */
  public static List<SqlNode> statements(String sql) {
    try {
      SqlNodeList list = SqlParser.create(sql, CONFIG).parseStmtList();
      return new ArrayList<>(list.getList());
    } catch (SqlParseException e) {
      throw problem(e);
    } catch (StackOverflowError e) {
      throw new SqlProblem(null, TOO_DEEP);
    }
  }

  /**
   * One query of {@code sql} (a view's, in the job's text with everything before it blanked, so
   * that positions stay those of the job's text).
   */
  public static SqlNode query(String sql) {
    try {
      return SqlParser.create(sql, CONFIG).parseQuery();
    } catch (SqlParseException e) {
      throw problem(e);
    } catch (StackOverflowError e) {
      throw new SqlProblem(null, TOO_DEEP);
    }
  }

  private static SqlProblem problem(SqlParseException e) {
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      if (c instanceof StackOverflowError) {
        return new SqlProblem(e.getPos(), TOO_DEEP);
      }
    }
    SqlParserPos pos = e.getPos();
    return new SqlProblem(pos, describe(e));
  }

  /** "syntax error at 'FROM'; expected one of: ..." from Calcite's longer message. */
  static String describe(SqlParseException e) {
    String message = String.valueOf(e.getMessage());
    Matcher near = NEAR_KEYWORD.matcher(message);
    if (near.find()) {
      return "syntax error at '" + near.group(1) + "'";
    }
    Matcher m = ENCOUNTERED.matcher(message);
    if (!m.find()) {
      String first = message.lines().findFirst().orElse("cannot parse").trim();
      return "syntax error: " + first.replaceAll(" at line \\d+, column \\d+", "");
    }
    StringBuilder out = new StringBuilder("syntax error at ");
    String token = m.group(1).trim();
    out.append(token.isEmpty() || token.equals("<EOF>") ? "the end of the text" : "'" + token + "'");
    List<String> expected = expected(e);
    if (isReserved(token) && expected.stream().anyMatch(x -> x.endsWith("IDENTIFIER>"))) {
      return out.append(" ('").append(token).append("' is a reserved word: quote it as `").append(token)
          .append("` to use it as a name)").toString();
    }
    if (!expected.isEmpty() && expected.size() <= MAX_EXPECTED) {
      out.append("; expected ").append(expected.size() == 1 ? "" : "one of ").append(String.join(", ", expected));
    }
    return out.toString();
  }

  private static boolean isReserved(String word) {
    return word.matches("[A-Za-z_][A-Za-z0-9_]*")
        && SqlParser.create("", CONFIG).getMetadata().isReservedWord(word.toUpperCase(java.util.Locale.ROOT));
  }

  private static List<String> expected(SqlParseException e) {
    List<String> out = new ArrayList<>();
    if (e.getExpectedTokenNames() == null) {
      return out;
    }
    int[][] sequences = e.getExpectedTokenSequences();
    String[] names = e.getTokenImages();
    if (sequences == null || names == null) {
      return out;
    }
    for (int[] seq : sequences) {
      if (seq.length > 0 && seq[seq.length - 1] < names.length) {
        String name = names[seq[seq.length - 1]].replace("\"", "");
        if (!out.contains(name)) {
          out.add(name);
        }
      }
    }
    return out;
  }
}
