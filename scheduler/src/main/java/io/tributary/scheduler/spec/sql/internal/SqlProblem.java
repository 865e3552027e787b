package io.tributary.scheduler.spec.sql.internal;

import io.tributary.scheduler.spec.SpecError;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A problem found while compiling a SQL job, at a position of its text. Thrown where going on
 * makes no sense; {@link Problems} collects those that do not stop the compilation.
 */
public final class SqlProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient SqlParserPos pos;

  public SqlProblem(SqlParserPos pos, String message) {
    super(message, null, false, false);
    this.pos = pos == null ? SqlParserPos.ZERO : pos;
  }

  /** Where it is; {@link SqlParserPos#ZERO} when unknown. */
  public SqlParserPos pos() {
    return pos;
  }

  /** As a spec error, positioned (line 1, column 1 when the position is unknown). */
  public SpecError toError() {
    return error(pos, getMessage());
  }

  /** A spec error at {@code pos} (line 1, column 1 when it is unknown). */
  public static SpecError error(SqlParserPos pos, String message) {
    int line = pos == null ? 0 : pos.getLineNum();
    int column = pos == null ? 0 : pos.getColumnNum();
    return line > 0 && column > 0 ? SpecError.at(line, column, message) : SpecError.at(1, 1, message);
  }
}
