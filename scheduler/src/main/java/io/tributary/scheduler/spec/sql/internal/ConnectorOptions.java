package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.scheduler.spec.internal.ConnectorRules;
import io.tributary.scheduler.spec.internal.Pointers;
import io.tributary.scheduler.spec.internal.PropertyRule;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A table's {@code WITH} options as the spec's source or sink entry: {@code connector} is the
 * {@code type}, every other key the field of that name (a dotted key such as
 * {@code properties.security.protocol} or {@code eventTime.idleTimeout} a field of the object
 * named by its first part), values typed as the connector's property expects (integers, numbers,
 * booleans, comma-separated lists). The spec's checks then judge them as they judge a YAML spec.
 */
final class ConnectorOptions {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Pattern INTEGER = Pattern.compile("-?\\d{1,18}");
  private static final Pattern NUMBER = Pattern.compile("-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");
  /** Objects whose keys are dotted themselves (Kafka client settings): the first dot splits. */
  private static final List<String> FLAT_OBJECTS = List.of("properties");

  private ConnectorOptions() {}

  /** The entry of table {@code def} under {@code pointer} ({@code /sources/<name>} or {@code /sinks/<name>}). */
  static ObjectNode entry(TableDef def, boolean source, String pointer, Locator locator) {
    ObjectNode entry = JSON.objectNode();
    String type = def.connector();
    entry.put("type", type);
    Map<String, List<PropertyRule>> rules = source ? ConnectorRules.SOURCES : ConnectorRules.SINKS;
    List<PropertyRule> typeRules = rules.getOrDefault(type, List.of());
    for (TableDef.Option o : def.options().values()) {
      if (o.key().equals(TableDef.CONNECTOR)) {
        locator.put(pointer + "/type", o.pos(), "table '" + def.name() + "', option 'connector'");
        continue;
      }
      String[] path = path(o.key());
      ObjectNode parent = entry;
      String at = pointer;
      for (int i = 0; i < path.length - 1; i++) {
        at = Pointers.child(at, path[i]);
        parent = parent.has(path[i]) && parent.get(path[i]).isObject() ? (ObjectNode) parent.get(path[i])
            : parent.putObject(path[i]);
      }
      String last = path[path.length - 1];
      parent.set(last, value(path.length == 1 ? last : null, o.value(), typeRules));
      locator.put(Pointers.child(at, last), o.pos(), "table '" + def.name() + "', option '" + o.key() + "'");
    }
    return entry;
  }

  /** The spec path of an option key: its dotted parts, or two parts for the flat objects. */
  private static String[] path(String key) {
    for (String flat : FLAT_OBJECTS) {
      if (key.startsWith(flat + ".") && key.length() > flat.length() + 1) {
        return new String[] {flat, key.substring(flat.length() + 1)};
      }
    }
    return key.split("\\.", -1);
  }

  /** {@code text} typed as the rule of {@code name} wants; text for anything else. */
  private static JsonNode value(String name, String text, List<PropertyRule> rules) {
    PropertyRule.Kind kind = rules.stream().filter(r -> r.name().equals(name)).map(PropertyRule::kind)
        .findFirst().orElse(name != null && name.equals("maxRecordsPerSecond") ? PropertyRule.Kind.POSITIVE_NUMBER
            : PropertyRule.Kind.STRING);
    String t = text.trim();
    return switch (kind) {
      case INTEGER, POSITIVE_INTEGER, NON_NEGATIVE_INTEGER -> INTEGER.matcher(t).matches()
          ? JSON.numberNode(Long.parseLong(t)) : JSON.textNode(text);
      case POSITIVE_NUMBER -> NUMBER.matcher(t).matches() ? number(t) : JSON.textNode(text);
      case STRING_LIST -> list(text);
      case BOOLEAN -> t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")
          ? JSON.booleanNode(Boolean.parseBoolean(t)) : JSON.textNode(text);
      default -> JSON.textNode(text);
    };
  }

  private static JsonNode number(String t) {
    return INTEGER.matcher(t).matches() ? JSON.numberNode(Long.parseLong(t)) : JSON.numberNode(Double.parseDouble(t));
  }

  private static JsonNode list(String text) {
    var array = JSON.arrayNode();
    for (String part : text.split(",")) {
      array.add(part.trim());
    }
    return array;
  }
}
