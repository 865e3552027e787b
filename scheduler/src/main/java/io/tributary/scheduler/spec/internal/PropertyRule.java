package io.tributary.scheduler.spec.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.connect.ClientSettings;
import java.util.List;

/**
 * The expected shape of one type-specific connector property.
 *
 * @param name the property's field name
 * @param kind its JSON shape
 * @param required whether it must be present
 * @param values for {@link Kind#ENUM}: the allowed strings
 */
public record PropertyRule(String name, Kind kind, boolean required, List<String> values) {
  public enum Kind { STRING, INTEGER, POSITIVE_INTEGER, NON_NEGATIVE_INTEGER, POSITIVE_NUMBER,
    POSITIVE_DURATION, ENUM, STRING_LIST, STRING_MAP, BOOLEAN,
    /** Settings for a Kafka consumer or producer: each key must pass {@link ClientSettings}. */
    CONSUMER_SETTINGS, PRODUCER_SETTINGS }

  public static PropertyRule required(String name, Kind kind) {
    return new PropertyRule(name, kind, true, List.of());
  }

  public static PropertyRule optional(String name, Kind kind) {
    return new PropertyRule(name, kind, false, List.of());
  }

  public static PropertyRule oneOf(String name, String... values) {
    return new PropertyRule(name, Kind.ENUM, false, List.of(values));
  }

  /**
   * Checks a present value and returns its plain JSON value, or adds an error and returns null.
   * {@link Kind#STRING_MAP} values may be any scalar and are kept as strings.
   */
  public Object read(ObjectReader reader) {
    JsonNode value = reader.field(name);
    return switch (kind) {
      case STRING -> reader.string(name, null);
      case ENUM -> reader.enumValue(name, values, null);
      case STRING_LIST -> reader.stringList(name);
      case STRING_MAP -> reader.stringMap(name, true);
      case CONSUMER_SETTINGS, PRODUCER_SETTINGS -> clientSettings(reader);
      case POSITIVE_DURATION -> reader.duration(name, true, null) == null ? null : JsonValues.toPlain(value);
      case POSITIVE_NUMBER -> reader.positiveNumber(name) == null ? null : JsonValues.toPlain(value);
      case BOOLEAN -> bool(reader, value);
      default -> integer(reader, value);
    };
  }

  private Boolean bool(ObjectReader reader, JsonNode value) {
    if (value == null) {
      return null;
    }
    if (!value.isBoolean()) {
      reader.error(name, "must be true or false, found " + JsonValues.describe(value));
      return null;
    }
    return value.booleanValue();
  }

  private Object clientSettings(ObjectReader reader) {
    java.util.Map<String, String> settings = reader.stringMap(name, true);
    if (settings == null) {
      return null;
    }
    boolean valid = true;
    for (java.util.Map.Entry<String, String> e : settings.entrySet()) {
      java.util.Optional<String> why = ClientSettings.refusal("kafka", kind == Kind.PRODUCER_SETTINGS, e.getKey(),
          e.getValue());
      if (why.isPresent()) {
        reader.errors().add(new io.tributary.scheduler.spec.SpecError(
            Pointers.child(reader.pointerOf(name), e.getKey()), why.get()));
        valid = false;
      }
    }
    return valid ? settings : null;
  }

  private Object integer(ObjectReader reader, JsonNode value) {
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      reader.error(name, "must be an integer, found " + JsonValues.describe(value));
      return null;
    }
    long v = value.longValue();
    if (kind == Kind.POSITIVE_INTEGER && v <= 0) {
      reader.error(name, "must be greater than 0");
      return null;
    }
    if (kind == Kind.NON_NEGATIVE_INTEGER && v < 0) {
      reader.error(name, "must not be negative");
      return null;
    }
    return v;
  }
}
