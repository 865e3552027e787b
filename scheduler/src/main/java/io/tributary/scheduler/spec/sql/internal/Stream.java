package io.tributary.scheduler.spec.sql.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * What a translated part of a query produces: the records of one node of the spec (a source, an
 * operator), a condition they must meet and the expression reading each column from them. Filters
 * and projections only change this description; an operator is made where the records must hold
 * the columns as fields (before a key, into a sink): {@link Translator#materialize}, so that a
 * chain of them becomes one transform.
 *
 * @param node the id of the spec node whose records these are
 * @param filter the condition (over the node's records) a record must meet to be a row; null: all
 * @param exprs the expression reading each column from the node's records, in the columns' order
 * @param fields the fields the node's records hold, in order, when exactly known; else null
 * @param time the column whose value is the record's event time less {@code timeOffset}; -1 if
 *     none is
 * @param timeOffset the record's event time minus the time column's value (-1 for window results,
 *     stamped {@code window_end - 1})
 * @param window for rows of windows (window results, or rows a window table function assigned
 *     windows): their window and columns; null otherwise
 * @param upsert whether the records are an upsert stream (an unbounded GROUP BY's), which only a
 *     sink may take
 */
record Stream(String node, String filter, List<String> exprs, List<String> fields, int time, long timeOffset,
    Window window, boolean upsert) {
  Stream {
    exprs = List.copyOf(exprs);
    fields = fields == null ? null : List.copyOf(fields);
  }

  /** The stream of all records of {@code node}, which hold exactly {@code fields}. */
  static Stream of(String node, List<String> fields, int time, long timeOffset, Window window) {
    return new Stream(node, null, quoted(fields), fields, time, timeOffset, window, false);
  }

  /** The stream of all records of {@code node} read as {@code columns} (fields it may hold, among others). */
  static Stream reading(String node, List<String> columns, int time) {
    return new Stream(node, null, quoted(columns), null, time, 0, null, false);
  }

  /**
   * The window whose results rows are.
   *
   * @param spec the window as the spec writes it ({@code type}, durations in milliseconds)
   * @param period the distance between consecutive window ends (a tumbling window's size, a
   *     sliding window's slide, a cumulating window's step); 0 for sessions
   * @param size the length of the longest window
   * @param start the column of {@code window_start}; -1 if dropped
   * @param end the column of {@code window_end}
   * @param results whether rows are results of windows, one per window and key, stamped {@code
   *     window_end - 1}; else rows a window table function assigned windows, keeping their times
   */
  record Window(com.fasterxml.jackson.databind.node.ObjectNode spec, long period, long size, int start, int end,
      boolean results) {
    Window moved(int newStart, int newEnd) {
      return new Window(spec, period, size, newStart, newEnd, results);
    }
  }

  /** Whether the node's records are the rows: no pending filter, and exactly {@code names} as fields. */
  boolean holdsExactly(List<String> names) {
    return filter == null && fields != null && fields.equals(names) && exprs.equals(quoted(names));
  }

  /** The field column {@code i} is, when its expression reads a field as it is; else null. */
  String field(int i) {
    return Names.unquote(exprs.get(i));
  }

  /** This stream with other columns (expressions over the same records) and window. */
  Stream withColumns(List<String> newExprs, int newTime, Window newWindow) {
    return new Stream(node, filter, newExprs, fields, newTime, timeOffset, newWindow, upsert);
  }

  /** This stream with {@code condition} (over the same records) added to its filter. */
  Stream filtered(String condition) {
    String f = filter == null ? condition : "(" + filter + " AND " + condition + ")";
    return new Stream(node, f, exprs, fields, time, timeOffset, window, upsert);
  }

  /** The same records read through {@code columns}, columns of this one. */
  Stream project(List<Integer> columns) {
    List<String> picked = new ArrayList<>();
    for (int c : columns) {
      picked.add(exprs.get(c));
    }
    return withColumns(picked, columns.indexOf(time), movedWindow(columns));
  }

  /** This stream's window description for a projection onto {@code columns}; null if it loses its end. */
  Window movedWindow(List<Integer> columns) {
    if (window == null) {
      return null;
    }
    int e = columns.indexOf(window.end());
    return e < 0 ? null : window.moved(columns.indexOf(window.start()), e);
  }

  /** This stream as an upsert stream. */
  Stream asUpsert() {
    return new Stream(node, filter, exprs, fields, time, timeOffset, window, true);
  }

  static List<String> quoted(List<String> names) {
    return names.stream().map(Names::quote).toList();
  }
}
