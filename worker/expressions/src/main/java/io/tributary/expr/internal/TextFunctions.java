package io.tributary.expr.internal;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The string functions of Flink SQL that Nexmark's queries use, for generated code: REPLACE,
 * REGEXP_EXTRACT, SPLIT_INDEX and DATE_FORMAT. NULL operands give NULL. Regular expressions and
 * date patterns are compiled once per distinct text (at most {@value #CACHED} of each are kept).
 */
public final class TextFunctions {
  private static final int CACHED = 256;
  private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();
  private static final Map<String, DateTimeFormatter> FORMATS = new ConcurrentHashMap<>();

  private TextFunctions() {}

  /** {@code REPLACE(s, search, replacement)}: every occurrence of {@code search} replaced. */
  public static String replace(Object s, Object search, Object replacement) {
    String x = Strings.str(s, "REPLACE");
    String f = Strings.str(search, "REPLACE");
    String r = Strings.str(replacement, "REPLACE");
    return x == null || f == null || r == null ? null : x.replace(f, r);
  }

  /**
   * {@code REGEXP_EXTRACT(s, regex [, group])}: group {@code group} (0, the default: the whole
   * match) of the first match of {@code regex} in {@code s}; NULL if there is none, or the group
   * took no part in it.
   */
  public static String regexpExtract(Object s, Object regex, Object group) {
    String x = Strings.str(s, "REGEXP_EXTRACT");
    String r = Strings.str(regex, "REGEXP_EXTRACT");
    Long g = Funcs.integer(group, "REGEXP_EXTRACT group");
    if (x == null || r == null || g == null) {
      return null;
    }
    Matcher m = cached(PATTERNS, r, TextFunctions::pattern).matcher(x);
    if (g < 0 || g > m.groupCount()) {
      throw new EvalException("REGEXP_EXTRACT group " + g + " does not exist in '" + r + "' (it has "
          + m.groupCount() + ")");
    }
    return m.find() ? m.group(g.intValue()) : null;
  }

  /**
   * {@code SPLIT_INDEX(s, delimiter, index)}: the {@code index}-th (from 0) part of {@code s}
   * split at every {@code delimiter} (empty parts kept); NULL when there is no such part.
   */
  public static String splitIndex(Object s, Object delimiter, Object index) {
    String x = Strings.str(s, "SPLIT_INDEX");
    String d = Strings.str(delimiter, "SPLIT_INDEX");
    Long i = Funcs.integer(index, "SPLIT_INDEX index");
    if (x == null || d == null || i == null || i < 0 || d.isEmpty()) {
      return null;
    }
    int from = 0;
    for (long part = 0; part < i; part++) {
      int at = x.indexOf(d, from);
      if (at < 0) {
        return null;
      }
      from = at + d.length();
    }
    int end = x.indexOf(d, from);
    return end < 0 ? x.substring(from) : x.substring(from, end);
  }

  /**
   * {@code DATE_FORMAT(ts, pattern)}: the timestamp {@code ts} (epoch milliseconds) in UTC written
   * with {@code pattern} ({@code yyyy-MM-dd}, {@code HH:mm}: Java's date-time patterns).
   */
  public static String dateFormat(Object ts, Object pattern) {
    Long millis = Funcs.integer(ts, "DATE_FORMAT timestamp");
    String p = Strings.str(pattern, "DATE_FORMAT");
    if (millis == null || p == null) {
      return null;
    }
    return cached(FORMATS, p, TextFunctions::format).format(Instant.ofEpochMilli(millis));
  }

  private static <T> T cached(Map<String, T> cache, String key, Function<String, T> make) {
    T known = cache.get(key);
    if (known != null) {
      return known;
    }
    T made = make.apply(key);
    if (cache.size() >= CACHED) {
      cache.clear();
    }
    cache.put(key, made);
    return made;
  }

  private static Pattern pattern(String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new EvalException("REGEXP_EXTRACT: '" + regex + "' is not a regular expression: " + e.getDescription());
    }
  }

  private static DateTimeFormatter format(String pattern) {
    try {
      return DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withZone(ZoneOffset.UTC);
    } catch (IllegalArgumentException e) {
      throw new EvalException("DATE_FORMAT: '" + pattern + "' is not a date pattern: " + e.getMessage());
    }
  }
}
