package io.tributary.run;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rows of the golden tests in one comparable form: each row its values in column order, written
 * {@code 12|3.5|"text"|null} (integers as integers, doubles as Java writes them, exactly).
 */
final class GoldenRows {
  private static final ObjectMapper JSON = new ObjectMapper();

  private GoldenRows() {}

  /**
   * How an upsert stream folds to its final value per key.
   *
   * @param key the fields of its key
   * @param later orders two records of one key so that the final one is the greatest (what grows
   *     with each update: an aggregate's count, a top-N's rank held by ever better rows); null when
   *     nothing does (an average): then the lines must be in the order they were committed ({@link
   *     #inCommitOrder}) and the last one of a key is its final record (a {@code delete}: none)
   */
  record Upsert(List<String> key, Comparator<Map<String, Object>> later) {}

  /**
   * The lines a file sink committed in {@code dir}, in the order each key's were written: files by
   * their time, then (for files of one time) by subtask, attempt and sequence number; lines in
   * file order. A key's records are written by one subtask at a time, into files of rising
   * sequence numbers, and a run restored from a savepoint writes after the one that took it.
   */
  static List<String> inCommitOrder(Path dir) throws IOException {
    Pattern part = Pattern.compile("part-(\\d+)-(\\d+)-(\\d+)\\.jsonl");
    List<Path> files = new ArrayList<>();
    try (var listing = Files.list(dir)) {
      listing.filter(f -> part.matcher(f.getFileName().toString()).matches()).forEach(files::add);
    }
    Map<Path, long[]> order = new HashMap<>();
    for (Path f : files) {
      Matcher m = part.matcher(f.getFileName().toString());
      m.matches();
      order.put(f, new long[] {Files.getLastModifiedTime(f).to(TimeUnit.NANOSECONDS), Long.parseLong(m.group(1)),
          Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
    }
    files.sort(Comparator.comparing(order::get, Arrays::compare));
    List<String> lines = new ArrayList<>();
    for (Path f : files) {
      Files.readAllLines(f, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).forEach(lines::add);
    }
    return lines;
  }

  /** The order of a field's values: numbers numerically, strings as strings; null first. */
  static Comparator<Map<String, Object>> by(String field) {
    return Comparator.comparing((Map<String, Object> m) -> (Comparable) comparable(m.get(field)),
        Comparator.nullsFirst(Comparator.naturalOrder()));
  }

  private static Comparable<?> comparable(Object v) {
    return v instanceof Integer || v instanceof Long || v instanceof Short ? (Comparable<?>) ((Number) v).longValue()
        : (Comparable<?>) v;
  }

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
   * fields in their order; with {@code upsert}, an upsert stream folded to the final value per key:
   * its greatest record by {@link Upsert#later()} (the lines' order is lost in committed files).
   */
  static List<String> fromSink(List<String> lines, Upsert upsert) {
    Map<List<Object>, Map<String, Object>> last = new LinkedHashMap<>();
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      Map<String, Object> fields = parse(line);
      Object op = fields.remove("_op");
      if (upsert == null) {
        out.add(row(new ArrayList<>(fields.values())));
        continue;
      }
      List<Object> key = upsert.key().stream().map(fields::get).toList();
      if (upsert.later() == null && "delete".equals(op)) {
        last.remove(key);
      } else if (upsert.later() == null) {
        last.put(key, fields);
      } else {
        last.merge(key, fields, (a, b) -> upsert.later().compare(a, b) >= 0 ? a : b);
      }
    }
    last.values().forEach(f -> out.add(row(new ArrayList<>(f.values()))));
    return out;
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
