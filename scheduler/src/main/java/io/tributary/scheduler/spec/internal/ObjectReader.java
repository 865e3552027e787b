package io.tributary.scheduler.spec.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.tributary.plan.Durations;
import io.tributary.scheduler.spec.SpecError;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the fields of one JSON object of a spec, adding a {@link SpecError} with the field's JSON
 * pointer for every problem and returning null (or the default) in its place, so that reading goes
 * on and every error is found. A JSON null counts as absent. Every field asked for is remembered
 * as known; {@link #rejectUnknown()} reports the others.
 */
public final class ObjectReader {
  private final JsonNode node;
  private final String pointer;
  private final List<SpecError> errors;
  private final Set<String> known = new LinkedHashSet<>();

  private ObjectReader(JsonNode node, String pointer, List<SpecError> errors) {
    this.node = node;
    this.pointer = pointer;
    this.errors = errors;
  }

  /** A reader of {@code node}, or null (after adding an error) if it is not an object. */
  public static ObjectReader of(JsonNode node, String pointer, List<SpecError> errors) {
    if (node == null || !node.isObject()) {
      String found = node == null ? "nothing" : JsonValues.describe(node);
      errors.add(new SpecError(pointer, "must be an object, found " + found));
      return null;
    }
    return new ObjectReader(node, pointer, errors);
  }

  public String pointer() {
    return pointer;
  }

  public String pointerOf(String field) {
    return Pointers.child(pointer, field);
  }

  public List<SpecError> errors() {
    return errors;
  }

  /** Adds an error at {@code field} of this object. */
  public void error(String field, String message) {
    errors.add(new SpecError(pointerOf(field), message));
  }

  /** The field's value, or null if absent or JSON null. Marks the field as known. */
  public JsonNode field(String name) {
    known.add(name);
    JsonNode value = node.get(name);
    return value == null || value.isNull() ? null : value;
  }

  public boolean has(String name) {
    return field(name) != null;
  }

  /** The field names present, in document order. */
  public List<String> names() {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** Marks names as known without reading them. */
  public void allow(Collection<String> names) {
    known.addAll(names);
  }

  /** A required, non-empty string. */
  public String requiredString(String name) {
    if (!has(name)) {
      error(name, "is required");
      return null;
    }
    return string(name, null);
  }

  /** An optional non-empty string. */
  public String string(String name, String defaultValue) {
    JsonNode value = field(name);
    if (value == null) {
      return defaultValue;
    }
    if (!value.isTextual()) {
      error(name, "must be a string, found " + JsonValues.describe(value));
      return null;
    }
    if (value.textValue().isBlank()) {
      error(name, "must not be empty");
      return null;
    }
    return value.textValue();
  }

  /** An optional string among {@code allowed}. */
  public String enumValue(String name, List<String> allowed, String defaultValue) {
    String value = string(name, defaultValue);
    if (value != null && !allowed.contains(value)) {
      error(name, Messages.notOneOf(value, allowed));
      return null;
    }
    return value;
  }

  /** An optional integer; null if absent or wrong. */
  public Integer integer(String name) {
    JsonNode value = field(name);
    if (value == null) {
      return null;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      error(name, "must be an integer, found " + JsonValues.describe(value));
      return null;
    }
    return value.intValue();
  }

  /** An optional number greater than 0; null if absent or wrong. */
  public Double positiveNumber(String name) {
    JsonNode value = field(name);
    if (value == null) {
      return null;
    }
    if (!value.isNumber() || value.doubleValue() <= 0) {
      error(name, "must be a number greater than 0");
      return null;
    }
    return value.doubleValue();
  }

  /**
   * An optional duration ({@code 10s}, {@code 500ms} or a number of milliseconds); the default if
   * absent, null if wrong. With {@code positive}, 0 is wrong too.
   */
  public Long duration(String name, boolean positive, Long defaultValue) {
    JsonNode value = field(name);
    if (value == null) {
      return defaultValue;
    }
    String problem = Messages.durationProblem(value, positive);
    if (problem != null) {
      error(name, problem);
      return null;
    }
    return Durations.parseMillis(JsonValues.toPlain(value));
  }

  /**
   * An optional duration that may be negative ({@code -5s}, {@code 10s}, or a number of
   * milliseconds); null if absent or wrong.
   */
  public Long signedDuration(String name) {
    JsonNode value = field(name);
    if (value == null) {
      return null;
    }
    boolean negative = value.isTextual() && value.textValue().strip().startsWith("-")
        || value.isIntegralNumber() && value.longValue() < 0;
    JsonNode magnitude = !negative ? value
        : value.isTextual() ? JsonNodeFactory.instance.textNode(value.textValue().strip().substring(1))
        : JsonNodeFactory.instance.numberNode(-value.longValue());
    String problem = Messages.durationProblem(magnitude, false);
    if (problem != null) {
      error(name, "must be a duration such as 10s or -10s, not '" + value.asText() + "'");
      return null;
    }
    long millis = Durations.parseMillis(JsonValues.toPlain(magnitude));
    return negative ? -millis : millis;
  }

  /** An optional list of non-empty strings; a single string is a list of one. Null if absent or wrong. */
  public List<String> stringList(String name) {
    JsonNode value = field(name);
    if (value == null) {
      return null;
    }
    if (value.isTextual()) {
      value = JsonNodeFactory.instance.arrayNode().add(value);
    }
    if (!value.isArray()) {
      error(name, "must be a list of strings, found " + JsonValues.describe(value));
      return null;
    }
    List<String> list = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      JsonNode e = value.get(i);
      if (!e.isTextual() || e.textValue().isBlank()) {
        errors.add(new SpecError(Pointers.child(pointerOf(name), i), "must be a non-empty string"));
        return null;
      }
      list.add(e.textValue());
    }
    return Collections.unmodifiableList(list);
  }

  /**
   * An optional object of name to non-empty string, in document order. With {@code scalars}, numbers
   * and booleans are accepted too and kept as their text. Null if absent or wrong.
   */
  public Map<String, String> stringMap(String name, boolean scalars) {
    JsonNode value = field(name);
    if (value == null) {
      return null;
    }
    ObjectReader map = of(value, pointerOf(name), errors);
    if (map == null) {
      return null;
    }
    Map<String, String> result = new LinkedHashMap<>();
    boolean ok = true;
    for (String key : map.names()) {
      JsonNode v = value.get(key);
      boolean fits = v.isTextual() ? !v.textValue().isBlank() : scalars && v.isValueNode() && !v.isNull();
      if (!fits) {
        map.error(key, "must be a non-empty string" + (scalars ? ", number or boolean" : ""));
        ok = false;
      } else {
        result.put(key, v.asText());
      }
    }
    return ok ? Collections.unmodifiableMap(result) : null;
  }

  /** A reader of an optional nested object; null if absent or not an object. */
  public ObjectReader object(String name) {
    JsonNode value = field(name);
    return value == null ? null : of(value, pointerOf(name), errors);
  }

  /** Adds an "unknown field" error for every field that was not read or allowed. */
  public void rejectUnknown() {
    for (String name : names()) {
      if (!known.contains(name)) {
        error(name, "unknown field '" + name + "'" + Suggestions.hint(name, known)
            + (Suggestions.closest(name, known) == null ? "; known fields: " + String.join(", ", known) : ""));
      }
    }
  }
}
