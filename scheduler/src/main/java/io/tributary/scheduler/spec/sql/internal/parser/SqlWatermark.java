package io.tributary.scheduler.spec.sql.internal.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code WATERMARK FOR column AS expression}: a table's event-time column and how far its watermark lags. */
public final class SqlWatermark extends SqlCall {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("WATERMARK", SqlKind.OTHER);

  private final SqlIdentifier column;
  private final SqlNode expression;

  public SqlWatermark(SqlParserPos pos, SqlIdentifier column, SqlNode expression) {
    super(pos);
    this.column = column;
    this.expression = expression;
  }

  /** The event-time column. */
  public SqlIdentifier column() {
    return column;
  }

  /** The watermark's expression, such as {@code ts - INTERVAL '4' SECOND}. */
  public SqlNode expression() {
    return expression;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(column, expression);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("WATERMARK FOR");
    column.unparse(writer, 0, 0);
    writer.keyword("AS");
    expression.unparse(writer, 0, 0);
  }
}
