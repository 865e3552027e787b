package io.tributary.expr.internal;

import java.util.regex.Pattern;

/**
 * A compiled SQL LIKE pattern: {@code %} matches any sequence, {@code _} any one character, an
 * optional escape character makes the next character literal. Simple shapes ({@code abc},
 * {@code abc%}, {@code %abc}, {@code %abc%}) avoid regular expressions. Immutable, thread-safe.
 */
public final class LikePattern {
  private enum Shape { EXACT, PREFIX, SUFFIX, CONTAINS, REGEX }

  private final Shape shape;
  private final String text;
  private final Pattern regex;

  private LikePattern(Shape shape, String text, Pattern regex) {
    this.shape = shape;
    this.text = text;
    this.regex = regex;
  }

  /**
   * Compiles {@code pattern}; {@code escape} is null or one character.
   *
   * @throws IllegalArgumentException on a bad escape character or a dangling escape
   */
  public static LikePattern compile(String pattern, String escape) {
    if (escape != null && escape.length() != 1) {
      throw new IllegalArgumentException("LIKE ESCAPE must be one character, got '" + escape + "'");
    }
    if (escape == null && pattern.indexOf('_') < 0) {
      LikePattern simple = simple(pattern);
      if (simple != null) {
        return simple;
      }
    }
    return new LikePattern(Shape.REGEX, pattern, toRegex(pattern, escape == null ? -1 : escape.charAt(0)));
  }

  private static LikePattern simple(String p) {
    boolean lead = p.startsWith("%");
    boolean trail = p.length() > (lead ? 1 : 0) && p.endsWith("%");
    String core = p.substring(lead ? 1 : 0, p.length() - (trail ? 1 : 0));
    if (core.indexOf('%') >= 0) {
      return null;
    }
    Shape shape = lead && trail ? Shape.CONTAINS : lead ? Shape.SUFFIX : trail ? Shape.PREFIX : Shape.EXACT;
    return new LikePattern(shape, core, null);
  }

  private static Pattern toRegex(String p, int escape) {
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < p.length(); i++) {
      char c = p.charAt(i);
      if (c == escape) {
        if (++i == p.length()) {
          throw new IllegalArgumentException("LIKE pattern '" + p + "' ends with the escape character");
        }
        re.append(Pattern.quote(String.valueOf(p.charAt(i))));
      } else if (c == '%') {
        re.append(".*");
      } else if (c == '_') {
        re.append('.');
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }

  public boolean matches(String s) {
    switch (shape) {
      case EXACT:
        return s.equals(text);
      case PREFIX:
        return s.startsWith(text);
      case SUFFIX:
        return s.endsWith(text);
      case CONTAINS:
        return s.contains(text);
      default:
        return regex.matcher(s).matches();
    }
  }
}
