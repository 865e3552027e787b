package io.tributary.scheduler.spec.sql.internal.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** One {@code 'key' = 'value'} of a table's {@code WITH (...)}. */
public final class SqlTableOption extends SqlCall {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("OPTION", SqlKind.OTHER);

  private final SqlNode key;
  private final SqlNode value;

  /** @param key a string literal; @param value a literal */
  public SqlTableOption(SqlParserPos pos, SqlNode key, SqlNode value) {
    super(pos);
    this.key = key;
    this.value = value;
  }

  /** The key as written, without quotes. */
  public String key() {
    return SqlLiterals.text(key);
  }

  /** The value as text: a string's content, a number or boolean as written. */
  public String value() {
    return SqlLiterals.text(value);
  }

  /** Where the key is written. */
  public SqlParserPos keyPosition() {
    return key.getParserPosition();
  }

  /** Where the value is written. */
  public SqlParserPos valuePosition() {
    return value.getParserPosition();
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(key, value);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    key.unparse(writer, leftPrec, rightPrec);
    writer.keyword("=");
    value.unparse(writer, leftPrec, rightPrec);
  }

}
