package io.tributary.scheduler.spec.sql.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * How deeply a statement nests (expressions in expressions, queries in queries), checked before
 * Calcite's validator and converter walk it recursively: a hostile text of a thousand nested
 * terms would otherwise overflow their stack. The limit is far above what a query needs; the
 * spec's expressions allow 32 levels of parentheses.
 */
final class Nesting {
  /** The deepest a statement's tree may be. */
  static final int MAX_DEPTH = 64;

  private Nesting() {}

  /** A node to look at, its depth, and the position of it or of its nearest ancestor that has one. */
  private record At(SqlNode node, int depth, SqlParserPos pos) {}

  private static SqlParserPos known(SqlNode node, SqlParserPos parent) {
    SqlParserPos pos = node.getParserPosition();
    return pos == null || pos.getLineNum() <= 0 ? parent : pos;
  }

  /**
   * Checks {@code statement}'s depth, walking it without recursion.
   *
   * @throws SqlProblem at the first node deeper than {@link #MAX_DEPTH}
   */
  static void check(SqlNode statement) {
    Deque<At> todo = new ArrayDeque<>();
    todo.push(new At(statement, 1, known(statement, SqlParserPos.ZERO)));
    while (!todo.isEmpty()) {
      At at = todo.pop();
      if (at.depth() > MAX_DEPTH) {
        throw new SqlProblem(at.pos(), "the statement nests more than " + MAX_DEPTH
            + " levels deep (expressions within expressions, queries within queries); write it flatter, with views");
      }
      Iterable<SqlNode> children = at.node() instanceof SqlNodeList list ? list
          : at.node() instanceof SqlCall call ? call.getOperandList() : java.util.List.of();
      for (SqlNode child : children) {
        if (child != null) {
          todo.push(new At(child, at.depth() + 1, known(child, at.pos())));
        }
      }
    }
  }
}
