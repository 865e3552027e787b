package io.tributary.scheduler.spec.sql.internal;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;

/** A declared table as Calcite's catalog sees it: its columns. */
final class StreamTable extends AbstractTable {
  private final TableDef def;

  StreamTable(TableDef def) {
    this.def = def;
  }

  TableDef def() {
    return def;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return def.rowType();
  }
}
