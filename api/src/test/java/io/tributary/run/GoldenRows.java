package io.tributary.run;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows of the golden tests in one comparable form: each row its values in column order, written
 * {@code 12|3.5|"text"|null} (integers as integers, doubles as Java writes them, exactly).
 */
final class GoldenRows {
  /** The column whose value grows with every update of an upsert stream's key (a count of its records). */
  static final String GROWING = "total_bids";
  private static final ObjectMapper JSON = new ObjectMapper();

  private GoldenRows() {}

  /** {@code rows} (of DuckDB) in canonical form. */
  static List<String> canonical(List<List<Object>> rows) {
    List<String> out = new ArrayList<>();
    for (List<Object> row : rows) {
      out.add(row(row));
    }
    return out;
  }

  /**
   * The rows a file sink committed ({@code changelog} lines, {@code _op} first), in canonical form,
   * fields in their order; with {@code upsertKey}, an upsert stream folded to the final value per
   * key: the update with the largest {@link #GROWING}.
   */
  static List<String> fromSink(List<String> lines, List<String> upsertKey) {
    Map<List<Object>, Map<String, Object>> last = new LinkedHashMap<>();
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      Map<String, Object> fields = parse(line);
      fields.remove("_op");
      if (upsertKey == null) {
        out.add(row(new ArrayList<>(fields.values())));
        continue;
      }
      List<Object> key = upsertKey.stream().map(fields::get).toList();
      last.merge(key, fields, (a, b) -> growing(a) >= growing(b) ? a : b);
    }
    last.values().forEach(f -> out.add(row(new ArrayList<>(f.values()))));
    return out;
  }

  private static long growing(Map<String, Object> fields) {
    return ((Number) fields.get(GROWING)).longValue();
  }

  private static String row(List<Object> values) {
    StringBuilder b = new StringBuilder();
    for (Object v : values) {
      b.append(b.isEmpty() ? "" : "|").append(value(v));
    }
    return b.toString();
  }

  private static String value(Object v) {
    if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      return Long.toString(((Number) v).longValue());
    }
    if (v instanceof String s) {
      return '"' + s + '"';
    }
    return String.valueOf(v);
  }

  private static Map<String, Object> parse(String line) {
    try {
      return JSON.readValue(line, new TypeReference<LinkedHashMap<String, Object>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("not a JSON object: " + line, e);
    }
  }
}
