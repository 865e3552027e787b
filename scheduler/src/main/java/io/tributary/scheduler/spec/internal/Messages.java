package io.tributary.scheduler.spec.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.plan.Durations;
import java.util.List;

/** Wording shared by spec errors. */
public final class Messages {
  private Messages() {}

  /** "'x' is not one of: a, b, c" plus a did-you-mean hint. */
  public static String notOneOf(String value, List<String> allowed) {
    return "'" + value + "' is not one of: " + String.join(", ", allowed) + Suggestions.hint(value, allowed);
  }

  /** Null if {@code value} is a valid duration (greater than 0 if {@code positive}), else why not. */
  public static String durationProblem(JsonNode value, boolean positive) {
    String wanted = positive ? "must be a positive duration such as 10s" : "must be a duration such as 10s";
    if (!value.isTextual() && !value.isIntegralNumber()) {
      return wanted + ", found " + JsonValues.describe(value);
    }
    try {
      long millis = Durations.parseMillis(JsonValues.toPlain(value));
      return positive && millis <= 0 ? wanted : null;
    } catch (IllegalArgumentException e) {
      return wanted + ", not '" + value.asText() + "'";
    }
  }
}
