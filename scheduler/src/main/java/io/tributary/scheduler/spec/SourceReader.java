package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.ConnectorRules;
import io.tributary.scheduler.spec.internal.ObjectReader;
import io.tributary.scheduler.spec.internal.PropertyRule;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Reads one entry of {@code sources}. */
final class SourceReader {
  private SourceReader() {}

  static SourceSpec read(String id, ObjectReader r) {
    String type = connectorType(r, ConnectorRules.SOURCES.keySet());
    String format = r.enumValue("format", List.of("json"), "json");
    EventTimeSpec eventTime = eventTime(r.object("eventTime"));
    Double maxRecordsPerSecond = r.positiveNumber("maxRecordsPerSecond");
    String deadLetterOutput = r.string("deadLetterOutput", null);
    Map<String, Object> properties = properties(r, type, ConnectorRules.SOURCES);
    return new SourceSpec(id, type, format, eventTime, maxRecordsPerSecond, deadLetterOutput, properties);
  }

  /** The {@code type} field, which must be one of {@code types}. */
  static String connectorType(ObjectReader r, Collection<String> types) {
    if (!r.has("type")) {
      r.error("type", "is required; one of: " + String.join(", ", types));
      return null;
    }
    return r.enumValue("type", List.copyOf(types), null);
  }

  /**
   * The type-specific properties, then rejects unknown fields. With an unknown type, its
   * properties cannot be checked: any other field is let through without error.
   */
  static Map<String, Object> properties(ObjectReader r, String type, Map<String, List<PropertyRule>> rules) {
    if (type == null) {
      r.allow(r.names());
      return Map.of();
    }
    Map<String, Object> properties = ConnectorRules.read(r, rules.get(type));
    r.rejectUnknown();
    return properties;
  }

  private static EventTimeSpec eventTime(ObjectReader o) {
    if (o == null) {
      return null;
    }
    String field = o.requiredString("field");
    Long outOfOrderness = o.duration("maxOutOfOrderness", false, 0L);
    Long idleTimeout = o.duration("idleTimeout", true, 0L);
    o.rejectUnknown();
    return new EventTimeSpec(field, outOfOrderness == null ? 0 : outOfOrderness, idleTimeout == null ? 0 : idleTimeout);
  }
}
