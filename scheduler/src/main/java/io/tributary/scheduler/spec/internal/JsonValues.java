package io.tributary.scheduler.spec.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts Jackson trees to plain JSON values: String, Long, Double, Boolean, List, Map (ordered). */
public final class JsonValues {
  private JsonValues() {}

  /** The plain value of {@code node}; null for a JSON null. */
  public static Object toPlain(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : (Object) node.doubleValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(e -> list.add(toPlain(e)));
      return Collections.unmodifiableList(list);
    }
    Map<String, Object> map = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> map.put(e.getKey(), toPlain(e.getValue())));
    return Collections.unmodifiableMap(map);
  }

  /** A short name of the node's JSON type, for messages ("a string", "a number"...). */
  public static String describe(JsonNode node) {
    if (node.isTextual()) {
      return "a string";
    }
    if (node.isBoolean()) {
      return "a boolean";
    }
    if (node.isNumber()) {
      return "a number";
    }
    if (node.isArray()) {
      return "a list";
    }
    return node.isObject() ? "an object" : "null";
  }
}
