package io.tributary.scheduler.spec.sql.internal;

import java.util.List;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * The operators a SQL job may call: Calcite's standard ones (the translation refuses those
 * Tributary cannot run, naming them) and Flink's {@code CUMULATE} window.
 */
final class TributaryOperators {
  /**
   * {@code CUMULATE(TABLE t, DESCRIPTOR(ts), step, size)}: windows that start every {@code size}
   * and grow by {@code step} up to {@code size}, as in Flink SQL. Its operands are HOP's (table,
   * time column, two intervals), so HOP's checks serve.
   */
  static final SqlWindowTableFunction CUMULATE = new SqlWindowTableFunction("CUMULATE",
      (SqlOperandMetadata) SqlStdOperatorTable.HOP.getOperandTypeChecker());

  static final SqlOperatorTable TABLE = SqlOperatorTables.chain(SqlStdOperatorTable.instance(),
      SqlOperatorTables.of(List.of(CUMULATE)));

  private TributaryOperators() {}
}
