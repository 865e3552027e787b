package io.tributary.scheduler.spec.sql.internal;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with AVG of DOUBLE type whatever its argument, as Tributary's {@code avg}
 * computes it, so that validated types are the values' types at run time; and strings of
 * different lengths that meet (CASE branches, UNION) are VARCHAR rather than padded CHAR, as in
 * Flink SQL ({@code CASE ... THEN 'a' ELSE 'bcd' END} is {@code 'a'}, not {@code 'a  '}).
 */
final class TributaryTypeSystem extends RelDataTypeSystemImpl {
  static final TributaryTypeSystem INSTANCE = new TributaryTypeSystem();

  private TributaryTypeSystem() {}

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
    return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
  }
}
