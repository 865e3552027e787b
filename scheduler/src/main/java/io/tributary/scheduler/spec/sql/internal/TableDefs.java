package io.tributary.scheduler.spec.sql.internal;

import io.tributary.scheduler.spec.sql.internal.parser.SqlCreateStreamTable;
import io.tributary.scheduler.spec.sql.internal.parser.SqlTableOption;
import io.tributary.scheduler.spec.sql.internal.parser.SqlWatermark;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;

/** Reads CREATE TABLE statements into {@link TableDef}s, checking what Calcite's grammar lets through. */
final class TableDefs {
  private TableDefs() {}

  /**
   * The table {@code create} declares.
   *
   * @throws SqlProblem at the first problem of the statement
   */
  static TableDef of(SqlCreateStreamTable create, RelDataTypeFactory types) {
    if (create.getReplace()) {
      throw new SqlProblem(create.getParserPosition(), "CREATE OR REPLACE is not supported: a job declares each "
          + "table once");
    }
    String name = Names.simple(create.name(), "a table's name");
    RelDataType rowType = columns(create, types);
    TableDef.Watermark watermark = watermark(create, rowType);
    Map<String, TableDef.Option> options = options(create);
    return new TableDef(name, create.name().getParserPosition(), rowType, watermark, options);
  }

  private static RelDataType columns(SqlCreateStreamTable create, RelDataTypeFactory types) {
    RelDataTypeFactory.Builder row = types.builder();
    Map<String, SqlNode> seen = new LinkedHashMap<>();
    for (SqlNode element : create.columns()) {
      SqlColumnDeclaration column = (SqlColumnDeclaration) element;
      String name = Names.simple(column.name, "a column's name");
      if (seen.put(name, column) != null) {
        throw new SqlProblem(column.name.getParserPosition(), "column '" + name + "' is declared twice");
      }
      row.add(name, ColumnTypes.of(column.dataType, types));
    }
    return row.build();
  }

  private static TableDef.Watermark watermark(SqlCreateStreamTable create, RelDataType rowType) {
    if (create.watermarks().isEmpty()) {
      return null;
    }
    if (create.watermarks().size() > 1) {
      throw new SqlProblem(create.watermarks().get(1).getParserPosition(), "a table declares at most one WATERMARK");
    }
    SqlWatermark w = (SqlWatermark) create.watermarks().get(0);
    String column = Names.simple(w.column(), "the event-time column");
    if (rowType.getField(column, true, false) == null) {
      throw new SqlProblem(w.column().getParserPosition(), "WATERMARK FOR names column '" + column
          + "', which the table does not declare" + Names.hint(column, rowType.getFieldNames()));
    }
    if (rowType.getField(column, true, false).getType().getSqlTypeName() != SqlTypeName.TIMESTAMP) {
      throw new SqlProblem(w.column().getParserPosition(), "the event-time column '" + column
          + "' must be declared TIMESTAMP(3) (epoch milliseconds)");
    }
    return new TableDef.Watermark(column, delay(w, column), w.getParserPosition());
  }

  /** The delay of {@code column - INTERVAL 'n' unit}, or 0 for {@code column} alone. */
  private static long delay(SqlWatermark w, String column) {
    SqlNode e = w.expression();
    if (e instanceof SqlIdentifier id && id.isSimple() && id.getSimple().equals(column)) {
      return 0;
    }
    if (e instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS
        && call.operand(0) instanceof SqlIdentifier id && id.isSimple() && id.getSimple().equals(column)
        && call.operand(1) instanceof SqlIntervalLiteral interval) {
      SqlIntervalLiteral.IntervalValue value = (SqlIntervalLiteral.IntervalValue) interval.getValue();
      if (value.getIntervalQualifier().isYearMonth()) {
        throw new SqlProblem(interval.getParserPosition(), "the watermark's delay must be in days, hours, minutes, "
            + "seconds or milliseconds");
      }
      long millis = SqlParserUtil.intervalToMillis(value);
      if (millis < 0) {
        throw new SqlProblem(interval.getParserPosition(), "the watermark's delay must not be negative");
      }
      return millis;
    }
    throw new SqlProblem(e.getParserPosition(), "WATERMARK FOR " + column + " AS takes " + column + " or "
        + column + " - INTERVAL 'n' SECOND (the largest delay of records behind the latest event time)");
  }

  private static Map<String, TableDef.Option> options(SqlCreateStreamTable create) {
    Map<String, TableDef.Option> options = new LinkedHashMap<>();
    for (SqlNode node : create.options()) {
      SqlTableOption option = (SqlTableOption) node;
      TableDef.Option o = new TableDef.Option(option.key(), option.value(), option.keyPosition());
      if (options.put(o.key(), o) != null) {
        throw new SqlProblem(option.keyPosition(), "option '" + o.key() + "' is given twice");
      }
    }
    if (!options.containsKey(TableDef.CONNECTOR)) {
      throw new SqlProblem(create.name().getParserPosition(), "table '" + create.name()
          + "' needs WITH ('connector' = '...'): file, datagen, nexmark or kafka for a source; file, kafka, stdout or "
          + "blackhole for a sink");
    }
    return options;
  }
}
