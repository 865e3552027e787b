package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.ConnectorRules;
import io.tributary.scheduler.spec.internal.ObjectReader;
import java.util.List;
import java.util.Map;

/** Reads one entry of {@code sinks}. */
final class SinkReader {
  private SinkReader() {}

  static SinkSpec read(String id, ObjectReader r) {
    String input = r.requiredString("input");
    String type = SourceReader.connectorType(r, ConnectorRules.SINKS.keySet());
    String format = r.enumValue("format", List.of("json"), "json");
    Map<String, Object> properties = SourceReader.properties(r, type, ConnectorRules.SINKS);
    return new SinkSpec(id, input, type, format, properties);
  }
}
