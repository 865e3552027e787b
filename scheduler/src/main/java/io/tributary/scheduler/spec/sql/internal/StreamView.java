package io.tributary.scheduler.spec.sql.internal;

import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A view of the job (CREATE VIEW): a query that statements read as a table. It expands into its
 * query's relational plan wherever it is read.
 */
final class StreamView extends AbstractTable implements TranslatableTable {
  private final String name;
  private final RelDataType rowType;
  private final String queryText;

  /**
   * @param queryText the job's text with everything but the view's query blanked, so that the
   *     query keeps its positions when parsed again
   */
  StreamView(String name, RelDataType rowType, String queryText) {
    this.name = name;
    this.rowType = rowType;
    this.queryText = queryText;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType;
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return context.expandView(rowType, queryText, List.of(), List.of(name)).rel;
  }
}
