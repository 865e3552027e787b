package io.tributary.scheduler.spec.internal;

import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.BOOLEAN;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.NON_NEGATIVE_INTEGER;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.INTEGER;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.POSITIVE_DURATION;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.POSITIVE_INTEGER;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.POSITIVE_NUMBER;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.STRING;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.STRING_LIST;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.CONSUMER_SETTINGS;
import static io.tributary.scheduler.spec.internal.PropertyRule.Kind.PRODUCER_SETTINGS;
import static io.tributary.scheduler.spec.internal.PropertyRule.oneOf;
import static io.tributary.scheduler.spec.internal.PropertyRule.optional;
import static io.tributary.scheduler.spec.internal.PropertyRule.required;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The type-specific properties each source and sink type accepts. Defaults are the connectors'
 * business; here only names, shapes and presence are checked.
 */
public final class ConnectorRules {
  /** Source types, in the order messages list them. */
  public static final Map<String, List<PropertyRule>> SOURCES = sources();
  /** Sink types, in the order messages list them. */
  public static final Map<String, List<PropertyRule>> SINKS = sinks();

  private ConnectorRules() {}

  private static Map<String, List<PropertyRule>> sources() {
    Map<String, List<PropertyRule>> m = new LinkedHashMap<>();
    m.put("file", List.of(required("path", STRING)));
    m.put("datagen", List.of(optional("count", POSITIVE_INTEGER), optional("keys", POSITIVE_INTEGER),
        optional("seed", INTEGER), optional("interval", POSITIVE_DURATION),
        optional("startTime", NON_NEGATIVE_INTEGER)));
    m.put("nexmark", List.of(optional("events", POSITIVE_INTEGER),
        oneOf("kind", "all", "person", "auction", "bid"), optional("seed", INTEGER),
        optional("eventRate", POSITIVE_NUMBER), optional("startTime", NON_NEGATIVE_INTEGER)));
    m.put("kafka", List.of(required("bootstrapServers", STRING), required("topic", STRING),
        oneOf("startFrom", "earliest", "latest"), optional("groupId", STRING),
        optional("properties", CONSUMER_SETTINGS)));
    return Collections.unmodifiableMap(m);
  }

  private static Map<String, List<PropertyRule>> sinks() {
    Map<String, List<PropertyRule>> m = new LinkedHashMap<>();
    m.put("file", List.of(required("path", STRING), optional("changelog", BOOLEAN)));
    m.put("kafka", List.of(required("bootstrapServers", STRING), required("topic", STRING),
        optional("keyFields", STRING_LIST), oneOf("delivery", "at-least-once", "exactly-once", "upsert"),
        optional("transactionalIdPrefix", STRING), optional("transactionTimeout", POSITIVE_DURATION),
        optional("properties", PRODUCER_SETTINGS)));
    m.put("stdout", List.of());
    m.put("blackhole", List.of(optional("maxRecordsPerSecond", POSITIVE_NUMBER),
        optional("maxRecordsPerSecondPerSubtask", POSITIVE_NUMBER)));
    return Collections.unmodifiableMap(m);
  }

  /**
   * Reads the properties that {@code rules} allow from {@code reader}, checking each, and returns
   * the valid ones as plain JSON values, in the order of {@code rules}.
   */
  public static Map<String, Object> read(ObjectReader reader, List<PropertyRule> rules) {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (PropertyRule rule : rules) {
      if (!reader.has(rule.name())) {
        if (rule.required()) {
          reader.error(rule.name(), "is required for this type");
        }
        continue;
      }
      Object value = rule.read(reader);
      if (value != null) {
        properties.put(rule.name(), value);
      }
    }
    return properties;
  }
}
