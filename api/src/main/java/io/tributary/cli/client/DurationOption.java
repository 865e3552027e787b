package io.tributary.cli.client;

import io.tributary.plan.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations such as {@code 500ms}, {@code 30s} or {@code 2m}. */
public final class DurationOption implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return Duration.ofMillis(Durations.parseMillis(value));
    } catch (RuntimeException e) {
      throw new TypeConversionException("expected a duration such as 500ms, 30s or 2m, not '" + value + "'");
    }
  }
}
