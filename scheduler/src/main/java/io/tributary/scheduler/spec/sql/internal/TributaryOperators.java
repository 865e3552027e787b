package io.tributary.scheduler.spec.sql.internal;

import java.util.List;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * The operators a SQL job may call: Calcite's standard ones (the translation refuses those
 * Tributary cannot run, naming them), Flink's {@code CUMULATE} window and the string functions of
 * Flink SQL that Tributary's expressions run.
 */
final class TributaryOperators {
  /**
   * {@code CUMULATE(TABLE t, DESCRIPTOR(ts), step, size)}: windows that start every {@code size}
   * and grow by {@code step} up to {@code size}, as in Flink SQL. Its operands are HOP's (table,
   * time column, two intervals), so HOP's checks serve.
   */
  static final SqlWindowTableFunction CUMULATE = new SqlWindowTableFunction("CUMULATE",
      (SqlOperandMetadata) SqlStdOperatorTable.HOP.getOperandTypeChecker());

  /** {@code REGEXP_EXTRACT(s, regex [, group])}, as in Flink SQL. */
  static final SqlFunction REGEXP_EXTRACT = function("REGEXP_EXTRACT",
      OperandTypes.or(OperandTypes.STRING_STRING, OperandTypes.STRING_STRING_INTEGER));
  /** {@code SPLIT_INDEX(s, delimiter, index)}, as in Flink SQL. */
  static final SqlFunction SPLIT_INDEX = function("SPLIT_INDEX", OperandTypes.STRING_STRING_INTEGER);
  /** {@code DATE_FORMAT(ts, pattern)}, as in Flink SQL (in UTC). */
  static final SqlFunction DATE_FORMAT = function("DATE_FORMAT",
      OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.STRING));

  static final SqlOperatorTable TABLE = SqlOperatorTables.chain(SqlStdOperatorTable.instance(),
      SqlOperatorTables.of(List.of(CUMULATE, REGEXP_EXTRACT, SPLIT_INDEX, DATE_FORMAT)));

  /** A string function of Flink SQL whose result may be NULL. */
  private static SqlFunction function(String name, SqlOperandTypeChecker operands) {
    return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
        ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.FORCE_NULLABLE), null, operands,
        SqlFunctionCategory.STRING);
  }

  private TributaryOperators() {}
}
