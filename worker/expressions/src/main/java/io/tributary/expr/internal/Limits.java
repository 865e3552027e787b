package io.tributary.expr.internal;

import io.tributary.expr.ExpressionException;

/**
 * Bounds on an expression's text, checked by a linear scan before Calcite's parser sees it, so
 * that no expression can keep a parser busy: its length, how deeply parentheses nest, and how many
 * operators it has (a chain of binary operators is as deep as it is long once parsed).
 */
public final class Limits {
  /** Characters in one expression. */
  public static final int MAX_LENGTH = 4096;
  /** Nesting of parentheses. */
  public static final int MAX_NESTING = 32;
  /** Operators ({@code + - * / % || = < > ! AND OR NOT ...}) in one expression. */
  public static final int MAX_OPERATORS = 256;

  private Limits() {}

  /**
   * @throws ExpressionException naming the bound {@code sql} exceeds
   */
  public static void check(String sql) {
    if (sql.length() > MAX_LENGTH) {
      throw new ExpressionException("expression is " + sql.length() + " characters long; at most " + MAX_LENGTH
          + " are allowed");
    }
    int depth = 0;
    int operators = 0;
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
        continue;
      }
      if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if (c == '(') {
        if (++depth > MAX_NESTING) {
          throw new ExpressionException("expression nests parentheses more than " + MAX_NESTING + " deep");
        }
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      } else if ("+-*/%=<>!|".indexOf(c) >= 0) {
        operators++;
        while (i + 1 < sql.length() && "=<>|".indexOf(sql.charAt(i + 1)) >= 0) {
          i++;
        }
      } else if (Character.isLetter(c) && (i == 0 || !isWordChar(sql.charAt(i - 1)))) {
        int end = i;
        while (end < sql.length() && isWordChar(sql.charAt(end))) {
          end++;
        }
        String word = sql.substring(i, end);
        if (word.equalsIgnoreCase("and") || word.equalsIgnoreCase("or") || word.equalsIgnoreCase("not")
            || word.equalsIgnoreCase("when") || word.equalsIgnoreCase("like") || word.equalsIgnoreCase("between")) {
          operators++;
        }
        i = end - 1;
      }
      if (operators > MAX_OPERATORS) {
        throw new ExpressionException("expression has more than " + MAX_OPERATORS + " operators; split it over "
            + "several operators or use IN (...) for long lists of alternatives");
      }
    }
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
