package io.tributary.cli.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Rows under upper-case headers, in columns aligned with three spaces between them. */
public final class Table {
  private static final String GAP = "   ";
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  public Table(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  public Table row(String... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException("a row of " + columns + " cells expected, got " + Arrays.toString(cells));
    }
    rows.add(Arrays.stream(cells).map(c -> c == null || c.isEmpty() ? "-" : c).toArray(String[]::new));
    return this;
  }

  /** The rows after the header. */
  int size() {
    return rows.size() - 1;
  }

  public String render() {
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(row[i]);
        if (i < columns - 1) {
          line.append(" ".repeat(width[i] - row[i].length())).append(GAP);
        }
      }
      sb.append(line.toString().stripTrailing()).append(System.lineSeparator());
    }
    return sb.toString();
  }
}
