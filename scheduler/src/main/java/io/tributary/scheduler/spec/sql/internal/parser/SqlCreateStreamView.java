package io.tributary.scheduler.spec.sql.internal.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code CREATE [TEMPORARY] VIEW name [(column, ...)] AS query}: a named query that later statements read. */
public final class SqlCreateStreamView extends SqlCreate {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE VIEW", SqlKind.CREATE_VIEW);

  private final SqlIdentifier name;
  private final SqlNodeList columns;
  private final SqlNode query;

  /** @param columns the view's column names, or null to keep the query's */
  public SqlCreateStreamView(SqlParserPos pos, boolean replace, SqlIdentifier name, SqlNodeList columns,
      SqlNode query) {
    super(OPERATOR, pos, replace, false);
    this.name = Objects.requireNonNull(name, "name");
    this.columns = columns;
    this.query = Objects.requireNonNull(query, "query");
  }

  public SqlIdentifier name() {
    return name;
  }

  /** The column names written after the view's name; null when none are. */
  public SqlNodeList columns() {
    return columns;
  }

  public SqlNode query() {
    return query;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    List<SqlNode> operands = new ArrayList<>();
    operands.add(name);
    operands.add(columns);
    operands.add(query);
    return operands;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE VIEW");
    name.unparse(writer, leftPrec, rightPrec);
    if (columns != null) {
      SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode c : columns) {
        writer.sep(",");
        c.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    writer.keyword("AS");
    query.unparse(writer, 0, 0);
  }
}
