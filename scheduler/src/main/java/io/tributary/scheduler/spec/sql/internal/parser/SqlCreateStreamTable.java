package io.tributary.scheduler.spec.sql.internal.parser;

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

/**
 * {@code CREATE TABLE name (column type, ..., WATERMARK FOR column AS expression) WITH ('key' =
 * 'value', ...)}: a source or sink of a SQL job and its connector options.
 */
public final class SqlCreateStreamTable extends SqlCreate {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);

  private final SqlIdentifier name;
  private final SqlNodeList columns;
  private final SqlNodeList watermarks;
  private final SqlNodeList options;

  /**
   * @param columns {@link org.apache.calcite.sql.ddl.SqlColumnDeclaration}s, in order
   * @param watermarks {@link SqlWatermark}s (a valid table has at most one)
   * @param options {@link SqlTableOption}s, in order
   */
  public SqlCreateStreamTable(SqlParserPos pos, boolean replace, SqlIdentifier name, SqlNodeList columns,
      SqlNodeList watermarks, SqlNodeList options) {
    super(OPERATOR, pos, replace, false);
    this.name = Objects.requireNonNull(name, "name");
    this.columns = Objects.requireNonNull(columns, "columns");
    this.watermarks = Objects.requireNonNull(watermarks, "watermarks");
    this.options = Objects.requireNonNull(options, "options");
  }

  public SqlIdentifier name() {
    return name;
  }

  public SqlNodeList columns() {
    return columns;
  }

  public SqlNodeList watermarks() {
    return watermarks;
  }

  public SqlNodeList options() {
    return options;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name, columns, watermarks, options);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE TABLE");
    name.unparse(writer, leftPrec, rightPrec);
    SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode element : columns) {
      writer.sep(",");
      element.unparse(writer, 0, 0);
    }
    for (SqlNode element : watermarks) {
      writer.sep(",");
      element.unparse(writer, 0, 0);
    }
    writer.endList(frame);
    if (!options.isEmpty()) {
      writer.keyword("WITH");
      SqlWriter.Frame with = writer.startList("(", ")");
      for (SqlNode option : options) {
        writer.sep(",");
        option.unparse(writer, 0, 0);
      }
      writer.endList(with);
    }
  }
}
