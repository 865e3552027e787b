package io.tributary.cli.client;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Locale;

/**
 * Durations, ages and sizes as people read them: {@code 45s}, {@code 3m12s}, {@code 2h5m},
 * {@code 4d3h}, {@code 1.5 MiB}.
 */
public final class Human {
  private Human() {}

  /** The time since {@code t}, or "-" when absent; a time in the future (clock skew) counts as 0s. */
  static String age(OffsetDateTime t, Instant now) {
    if (t == null) {
      return "-";
    }
    Duration d = Duration.between(t.toInstant(), now);
    return duration(d.isNegative() ? Duration.ZERO : d);
  }

  /** A duration in at most two units; below a minute in seconds, below a second in milliseconds. */
  public static String duration(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + "ms";
    }
    long s = ms / 1000;
    if (s < 60) {
      return ms < 10_000 && ms % 1000 != 0 ? String.format(Locale.ROOT, "%.1fs", ms / 1000.0) : s + "s";
    }
    if (s < 3600) {
      return two(s / 60, "m", s % 60, "s");
    }
    if (s < 86_400) {
      return two(s / 3600, "h", s % 3600 / 60, "m");
    }
    return two(s / 86_400, "d", s % 86_400 / 3600, "h");
  }

  static String bytes(Long bytes) {
    if (bytes == null) {
      return "-";
    }
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  private static String two(long a, String unitA, long b, String unitB) {
    return b == 0 ? a + unitA : a + unitA + b + unitB;
  }
}
