package io.tributary.scheduler.spec.sql.internal;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Where a statement first uses each operator and each kind of construct: relational plans carry no
 * positions, so an error found in one points at the construct it is about this way.
 */
final class Positions {
  private final Map<String, SqlParserPos> byName = new HashMap<>();
  private final Map<SqlKind, SqlParserPos> byKind = new HashMap<>();
  private final SqlParserPos statement;

  /** The positions in {@code statement} (not yet validated: validation moves and rewrites nodes). */
  Positions(SqlNode statement) {
    this.statement = statement.getParserPosition();
    statement.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        byName.putIfAbsent(call.getOperator().getName().toUpperCase(Locale.ROOT), pos);
        byKind.putIfAbsent(call.getKind(), pos);
        return super.visit(call);
      }
    });
  }

  /** The statement's own position. */
  SqlParserPos statement() {
    return statement;
  }

  /** Where {@code u} is about, else the statement. */
  SqlParserPos of(Unsupported u) {
    SqlParserPos pos = null;
    if (u.operator != null) {
      pos = byName.get(u.operator.toUpperCase(Locale.ROOT));
    }
    if (pos == null && u.kind != null) {
      pos = byKind.get(u.kind);
    }
    return pos == null ? statement : pos;
  }
}
