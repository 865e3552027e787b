package io.tributary.connectors.internal;

import io.tributary.connect.ConnectorException;
import io.tributary.plan.Durations;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed, validated access to a connector's spec properties. Every failure is a {@link
 * ConnectorException} naming the connector, the property and what to write instead.
 */
public final class ConnectorProperties {
  /** Keys the spec may carry next to the type-specific ones; connectors ignore them. */
  private static final Set<String> GENERIC =
      Set.of("id", "name", "type", "format", "input", "eventTime", "maxRecordsPerSecond",
          "deadLetterOutput", "deadLetter", "parallelism");

  private final String what;
  private final Map<String, Object> values;

  /**
   * @param what how messages name the connector, for example {@code kafka source 'bids'}
   */
  public ConnectorProperties(String what, Map<String, Object> values) {
    this.what = what;
    this.values = values == null ? Map.of() : values;
  }

  /** Fails when a key is neither generic nor in {@code known}: typos must not pass silently. */
  public ConnectorProperties allowOnly(String... known) {
    Set<String> allowed = Set.of(known);
    for (String key : values.keySet()) {
      if (!allowed.contains(key) && !GENERIC.contains(key)) {
        throw error("unknown property '" + key + "'; known properties: " + new TreeSet<>(allowed));
      }
    }
    return this;
  }

  public boolean has(String key) {
    return values.get(key) != null;
  }

  /** A required, non-blank string. */
  public String string(String key) {
    Object v = values.get(key);
    if (v == null) {
      throw error("property '" + key + "' is required");
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw error("property '" + key + "' must be a non-empty string, not " + describe(v));
    }
    return s;
  }

  public String string(String key, String defaultValue) {
    return has(key) ? string(key) : defaultValue;
  }

  /** A boolean property, {@code defaultValue} when absent. */
  public boolean bool(String key, boolean defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (!(v instanceof Boolean b)) {
      throw error("property '" + key + "' must be true or false, not " + describe(v));
    }
    return b;
  }

  /** One of {@code allowed} (case-insensitive), returned in lower case. */
  public String choice(String key, String defaultValue, String... allowed) {
    String v = string(key, defaultValue).toLowerCase(java.util.Locale.ROOT);
    if (!List.of(allowed).contains(v)) {
      throw error("property '" + key + "' must be one of " + List.of(allowed) + ", not '" + v + "'");
    }
    return v;
  }

  /** A whole number of at least {@code min}. */
  public long longValue(String key, long defaultValue, long min) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    long n;
    if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      n = ((Number) v).longValue();
    } else if (v instanceof Number d && d.doubleValue() == Math.rint(d.doubleValue())) {
      n = d.longValue();
    } else {
      throw error("property '" + key + "' must be a whole number, not " + describe(v));
    }
    if (n < min) {
      throw error("property '" + key + "' must be at least " + min + ", not " + n);
    }
    return n;
  }

  /** A number greater than zero. */
  public double positiveNumber(String key, double defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (!(v instanceof Number n) || !(n.doubleValue() > 0) || Double.isInfinite(n.doubleValue())) {
      throw error("property '" + key + "' must be a number greater than 0, not " + describe(v));
    }
    return n.doubleValue();
  }

  /** A duration in milliseconds ({@code 10s}, {@code 250ms} or a number of ms). */
  public long millis(String key, long defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    try {
      return Durations.parseMillis(v);
    } catch (IllegalArgumentException e) {
      throw error("property '" + key + "': " + e.getMessage());
    }
  }

  /** A list of non-empty strings; empty when absent. */
  public List<String> stringList(String key) {
    Object v = values.get(key);
    if (v == null) {
      return List.of();
    }
    if (v instanceof String s && !s.isBlank()) {
      return List.of(s);
    }
    if (v instanceof List<?> list && list.stream().allMatch(e -> e instanceof String s && !s.isBlank())) {
      return list.stream().map(String.class::cast).toList();
    }
    throw error("property '" + key + "' must be a list of field names, not " + describe(v));
  }

  /** A map of string keys to scalar values, as strings; empty when absent. */
  public Map<String, String> stringMap(String key) {
    Object v = values.get(key);
    if (v == null) {
      return Map.of();
    }
    if (!(v instanceof Map<?, ?> map)) {
      throw error("property '" + key + "' must be an object of settings, not " + describe(v));
    }
    Map<String, String> out = new java.util.LinkedHashMap<>();
    map.forEach((k, val) -> {
      if (val instanceof Map || val instanceof List) {
        throw error("property '" + key + "." + k + "' must be a plain value, not " + describe(val));
      }
      out.put(String.valueOf(k), String.valueOf(val));
    });
    return out;
  }

  /** A configuration error about this connector. */
  public ConnectorException error(String message) {
    return new ConnectorException(what + ": " + message);
  }

  private static String describe(Object v) {
    return v instanceof String ? "'" + v + "'" : v + " (" + v.getClass().getSimpleName() + ")";
  }
}
