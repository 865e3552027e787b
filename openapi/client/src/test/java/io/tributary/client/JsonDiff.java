package io.tributary.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Compares a JSON document with what the generated models wrote back after reading it. */
final class JsonDiff {
  /** Fields the contract declares a default for, which the generated models write out. */
  private static final Map<String, String> DEFAULTS =
      Map.of("format", "json", "mode", "exactly-once", "backend", "heap", "kind", "all");
  /** Objects that are maps in the spec, whose order is meaningful (output field order, document order). */
  private static final Set<String> MAPS = Set.of("sources", "sinks", "select", "aggregate", "properties");

  private JsonDiff() {}

  /**
   * Every field of {@code expected} that {@code actual} lost or changed (numbers compare by
   * value), every field it added other than a declared default, and every map whose order changed;
   * empty if none.
   */
  static List<String> lostOrChanged(JsonNode expected, JsonNode actual) {
    List<String> problems = new ArrayList<>();
    compare("", expected, actual, problems);
    return problems;
  }

  private static void compare(String pointer, JsonNode expected, JsonNode actual, List<String> problems) {
    if (actual == null || actual.isMissingNode()) {
      problems.add(pointer + ": lost (was " + expected + ")");
    } else if (expected.isObject() && actual.isObject()) {
      for (Map.Entry<String, JsonNode> field : expected.properties()) {
        compare(pointer + "/" + field.getKey(), field.getValue(), actual.get(field.getKey()), problems);
      }
      List<String> expectedNames = new ArrayList<>();
      expected.fieldNames().forEachRemaining(expectedNames::add);
      actual.properties().forEach(field -> {
        String name = field.getKey();
        boolean isDefault = DEFAULTS.containsKey(name) && DEFAULTS.get(name).equals(field.getValue().asText());
        if (!expected.has(name) && !isDefault) {
          problems.add(pointer + "/" + name + ": added " + field.getValue());
        }
      });
      List<String> actualNames = new ArrayList<>();
      actual.fieldNames().forEachRemaining(name -> {
        if (expected.has(name)) {
          actualNames.add(name);
        }
      });
      if (MAPS.contains(pointer.substring(pointer.lastIndexOf('/') + 1)) && !actualNames.equals(expectedNames)) {
        problems.add(pointer + ": field order " + actualNames + " instead of " + expectedNames);
      }
    } else if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
      for (int i = 0; i < expected.size(); i++) {
        compare(pointer + "/" + i, expected.get(i), actual.get(i), problems);
      }
    } else if (expected.isNumber() && actual.isNumber()) {
      if (expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
        problems.add(pointer + ": " + expected + " became " + actual);
      }
    } else if (!expected.equals(actual)) {
      problems.add(pointer + ": " + expected + " became " + actual);
    }
  }
}
