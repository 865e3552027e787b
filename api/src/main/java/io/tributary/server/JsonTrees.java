package io.tributary.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micronaut.json.tree.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves job specs between the API's JSON trees (Micronaut's) and the text the control plane stores
 * and parses (Jackson's, which reads YAML and JSON alike). Numbers keep their exact type.
 */
final class JsonTrees {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonTrees() {}

  /** The stored spec text (YAML or JSON) as a tree. */
  static com.fasterxml.jackson.databind.JsonNode parseSpec(String text) {
    try {
      return YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored spec is not YAML or JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** The JSON text of an API tree. */
  static String toJson(JsonNode node) {
    try {
      return JSON.writeValueAsString(toJackson(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static com.fasterxml.jackson.databind.JsonNode toJackson(JsonNode n) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (n == null || n.isNull()) {
      return f.nullNode();
    }
    if (n.isObject()) {
      ObjectNode o = f.objectNode();
      for (Map.Entry<String, JsonNode> e : n.entries()) {
        o.set(e.getKey(), toJackson(e.getValue()));
      }
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = f.arrayNode();
      for (JsonNode v : n.values()) {
        a.add(toJackson(v));
      }
      return a;
    }
    if (n.isString()) {
      return f.textNode(n.getStringValue());
    }
    if (n.isBoolean()) {
      return f.booleanNode(n.getBooleanValue());
    }
    Number v = n.getNumberValue();
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return f.numberNode(v.longValue());
    }
    if (v instanceof java.math.BigInteger) {
      return f.numberNode((java.math.BigInteger) v);
    }
    if (v instanceof java.math.BigDecimal) {
      return f.numberNode((java.math.BigDecimal) v);
    }
    return f.numberNode(v.doubleValue());
  }

  static JsonNode toMicronaut(com.fasterxml.jackson.databind.JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return JsonNode.nullNode();
    }
    if (n.isObject()) {
      Map<String, JsonNode> m = new LinkedHashMap<>();
      n.fields().forEachRemaining(e -> m.put(e.getKey(), toMicronaut(e.getValue())));
      return JsonNode.createObjectNode(m);
    }
    if (n.isArray()) {
      List<JsonNode> l = new ArrayList<>();
      n.forEach(v -> l.add(toMicronaut(v)));
      return JsonNode.createArrayNode(l);
    }
    if (n.isBoolean()) {
      return JsonNode.createBooleanNode(n.booleanValue());
    }
    if (n.isNumber()) {
      return JsonNode.createNumberNodeImpl(n.numberValue());
    }
    return JsonNode.createStringNode(n.asText());
  }
}
