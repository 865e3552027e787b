package io.tributary.scheduler.spec.sql.internal;

import org.apache.calcite.sql.parser.SqlParserPos;

/** Slices of a job's SQL text by parser position. */
final class Texts {
  private Texts() {}

  /**
   * {@code text} with everything outside {@code pos} blanked (line breaks kept), so that what
   * lies within parses alone and keeps its lines and columns.
   */
  static String only(String text, SqlParserPos pos) {
    int start = offset(text, pos.getLineNum(), pos.getColumnNum());
    int end = offset(text, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean inside = i >= start && i < end;
      out.append(inside || c == '\n' || c == '\r' ? c : ' ');
    }
    return out.toString();
  }

  /** The offset of a 1-based line and column in {@code text}, or -1. */
  static int offset(String text, int line, int column) {
    int off = 0;
    for (int l = 1; l < line; l++) {
      off = text.indexOf('\n', off) + 1;
      if (off == 0) {
        return -1;
      }
    }
    return column < 1 ? -1 : off + column - 1;
  }
}
