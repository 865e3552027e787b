package io.tributary.scheduler.spec.sql.internal;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * The SQL a job may write: Calcite's lenient conformance ({@code %}, {@code !=}, GROUP BY an
 * alias), except that an INSERT must give every column of its table, as in Flink SQL.
 */
final class Conformance extends SqlDelegatingConformance {
  static final Conformance INSTANCE = new Conformance();

  private Conformance() {
    super(SqlConformanceEnum.LENIENT);
  }

  @Override
  public boolean isInsertSubsetColumnsAllowed() {
    return false;
  }
}
