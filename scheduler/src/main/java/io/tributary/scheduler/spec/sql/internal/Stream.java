package io.tributary.scheduler.spec.sql.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * What a translated part of a query produces: the records of one node of the spec (a source, an
 * operator) and where each of the part's columns is in them. Renaming, reordering or dropping
 * columns changes only this description; an operator makes records of exactly its columns
 * ({@link #exact}).
 *
 * @param node the id of the spec node whose records these are
 * @param fields the record field holding each column, in the columns' order
 * @param time the column whose value is the record's event time less {@code timeOffset}; -1 if
 *     none is
 * @param timeOffset the record's event time minus the time column's value (-1 for window results,
 *     stamped {@code window_end - 1})
 * @param window for rows of window results: their window and columns; null otherwise
 * @param exact whether the records hold exactly {@link #fields}, in order
 */
record Stream(String node, List<String> fields, int time, long timeOffset, Window window, boolean exact) {
  Stream {
    fields = List.copyOf(fields);
  }

  /**
   * The window whose results rows are.
   *
   * @param spec the window as the spec writes it ({@code type}, durations in milliseconds)
   * @param period the distance between consecutive window ends (a tumbling window's size, a
   *     sliding window's slide, a cumulating window's step); 0 for sessions
   * @param size the length of the longest window
   * @param start the column of {@code window_start}; -1 if dropped
   * @param end the column of {@code window_end}; -1 if dropped
   */
  record Window(com.fasterxml.jackson.databind.node.ObjectNode spec, long period, long size, int start, int end) {
    Window moved(int newStart, int newEnd) {
      return new Window(spec, period, size, newStart, newEnd);
    }
  }

  /** The stream of the same records read through {@code columns}, columns of this one. */
  Stream project(List<Integer> columns) {
    List<String> picked = new ArrayList<>();
    for (int c : columns) {
      picked.add(fields.get(c));
    }
    boolean same = exact && columns.equals(identity(fields.size()));
    return new Stream(node, picked, columns.indexOf(time), timeOffset, movedWindow(columns), same);
  }

  /** This stream's window description for a projection onto {@code columns}; null if it loses a bound. */
  Window movedWindow(List<Integer> columns) {
    if (window == null) {
      return null;
    }
    int s = columns.indexOf(window.start());
    int e = columns.indexOf(window.end());
    return e < 0 ? null : window.moved(s, e);
  }

  /** A stream of the records of another node, with the same description of columns. */
  Stream from(String newNode, boolean newExact) {
    return new Stream(newNode, fields, time, timeOffset, window, newExact);
  }

  static List<Integer> identity(int n) {
    List<Integer> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }
}
