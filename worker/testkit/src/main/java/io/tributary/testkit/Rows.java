package io.tributary.testkit;

import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Table-style records for tests:
 *
 * <pre>{@code
 * List<Record> bids = Rows.parse("""
 *     auction | price | dateTime
 *     1       | 100   | 1000
 *     2       | null  | 'n/a'
 *     """, "dateTime");
 * }</pre>
 *
 * <p>The first non-blank line names the columns; cells are separated by {@code |}. Whole numbers
 * become Long, decimals Double, {@code true}/{@code false} Boolean, {@code null} null; quoted
 * strings ({@code 'x'} or {@code "x"}) lose their quotes; anything else stays a string. Blank
 * lines and lines starting with {@code #} are skipped.
 */
public final class Rows {
  private static final Pattern WHOLE = Pattern.compile("[-+]?\\d+");
  private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.\\d*|\\.\\d+)([eE][-+]?\\d+)?|[-+]?\\d+[eE][-+]?\\d+");

  private Rows() {}

  /** Records without timestamps. */
  public static List<Record> parse(String table) {
    return parse(table, null);
  }

  /**
   * Records whose timestamp is the value of column {@code timestampColumn} (a whole number, or
   * null for {@link Record#NO_TIMESTAMP}); the column stays a field too.
   */
  public static List<Record> parse(String table, String timestampColumn) {
    List<String[]> lines = new ArrayList<>();
    for (String line : table.split("\n")) {
      String t = line.strip();
      if (!t.isEmpty() && !t.startsWith("#")) {
        lines.add(Arrays.stream(t.split("\\|", -1)).map(String::strip).toArray(String[]::new));
      }
    }
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("table has no header line");
    }
    Schema schema = Schema.of(lines.get(0));
    int tsIndex = timestampColumn == null ? -1 : schema.indexOf(timestampColumn);
    if (timestampColumn != null && tsIndex < 0) {
      throw new IllegalArgumentException("no column '" + timestampColumn + "' in " + schema);
    }
    List<Record> records = new ArrayList<>();
    for (int r = 1; r < lines.size(); r++) {
      records.add(row(schema, lines.get(r), tsIndex, r));
    }
    return records;
  }

  /** The fields of each record as ordered maps, for comparing with AssertJ. */
  public static List<Map<String, Object>> maps(List<Record> records) {
    return records.stream().map(Record::asMap).toList();
  }

  private static Record row(Schema schema, String[] cells, int tsIndex, int line) {
    if (cells.length != schema.size()) {
      throw new IllegalArgumentException("row " + line + " has " + cells.length + " cells for columns " + schema);
    }
    Object[] values = new Object[cells.length];
    for (int i = 0; i < cells.length; i++) {
      values[i] = value(cells[i]);
    }
    long ts = Record.NO_TIMESTAMP;
    if (tsIndex >= 0) {
      Object v = values[tsIndex];
      if (v != null && !(v instanceof Long)) {
        throw new IllegalArgumentException("row " + line + ": timestamp '" + v + "' is not a whole number");
      }
      ts = v == null ? Record.NO_TIMESTAMP : (Long) v;
    }
    return new Record(schema, values, ts);
  }

  static Object value(String cell) {
    if (cell.equals("null")) {
      return null;
    }
    if (cell.equals("true") || cell.equals("false")) {
      return Boolean.valueOf(cell);
    }
    if (cell.length() >= 2 && (cell.startsWith("'") && cell.endsWith("'") || cell.startsWith("\"") && cell.endsWith("\""))) {
      return cell.substring(1, cell.length() - 1);
    }
    if (WHOLE.matcher(cell).matches()) {
      return Long.parseLong(cell);
    }
    if (DECIMAL.matcher(cell).matches()) {
      return Double.parseDouble(cell);
    }
    return cell;
  }
}
