package io.tributary.plan;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses spec durations: {@code 250ms}, {@code 10s}, {@code 5m}, {@code 1h}, {@code 2d}, or plain milliseconds. */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("\\s*(\\d+)\\s*(ms|s|m|h|d)?\\s*");

  private Durations() {}

  /**
   * Milliseconds of {@code value} (a Number of ms or a duration string).
   *
   * @throws IllegalArgumentException with a message fit for a validation error
   */
  public static long parseMillis(Object value) {
    if (value instanceof Number n) {
      if (n.longValue() < 0) {
        throw new IllegalArgumentException("must not be negative");
      }
      return n.longValue();
    }
    if (value instanceof String s) {
      Matcher m = DURATION.matcher(s);
      if (m.matches()) {
        long v = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
          case "ms" -> v;
          case "s" -> v * 1_000;
          case "m" -> v * 60_000;
          case "h" -> v * 3_600_000;
          default -> v * 86_400_000;
        };
      }
    }
    throw new IllegalArgumentException(
        "'" + value + "' is not a duration; write for example 500ms, 10s, 5m or 1h");
  }
}
