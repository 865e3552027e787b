package io.tributary.cli;

import io.tributary.plan.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;

/** Reads durations such as {@code 500ms}, {@code 3s} or {@code 1m}. */
final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    return Duration.ofMillis(Durations.parseMillis(value));
  }
}
