package io.tributary.scheduler.spec.sql.internal;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The column types a table may declare, and what their values are at run time: integers
 * (TINYINT to BIGINT) are 64-bit integers, FLOAT, REAL, DOUBLE and DECIMAL are doubles, CHAR,
 * VARCHAR and STRING (Flink's name for VARCHAR) are strings, BOOLEAN is a boolean, and TIMESTAMP
 * (precision up to 3) holds epoch milliseconds, as event time and window bounds do.
 */
final class ColumnTypes {
  private static final Set<SqlTypeName> ALLOWED = Set.of(SqlTypeName.BOOLEAN, SqlTypeName.TINYINT,
      SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.FLOAT, SqlTypeName.REAL,
      SqlTypeName.DOUBLE, SqlTypeName.DECIMAL, SqlTypeName.CHAR, SqlTypeName.VARCHAR, SqlTypeName.TIMESTAMP);

  private ColumnTypes() {}

  /**
   * The type {@code spec} declares, nullable unless declared NOT NULL.
   *
   * @throws SqlProblem if Tributary has no such type
   */
  static RelDataType of(SqlDataTypeSpec spec, RelDataTypeFactory factory) {
    SqlTypeNameSpec name = spec.getTypeNameSpec();
    RelDataType type;
    if (name instanceof SqlUserDefinedTypeNameSpec u && u.getTypeName().isSimple()
        && u.getTypeName().getSimple().toUpperCase(Locale.ROOT).equals("STRING")) {
      type = factory.createSqlType(SqlTypeName.VARCHAR);
    } else if (name instanceof SqlBasicTypeNameSpec b && ALLOWED.contains(typeName(b))) {
      type = basic(b, factory);
    } else {
      throw new SqlProblem(spec.getParserPosition(), "unsupported column type " + spec
          + "; use BIGINT, INT, DOUBLE, DECIMAL, VARCHAR (or STRING), BOOLEAN or TIMESTAMP(3)");
    }
    boolean nullable = spec.getNullable() == null || spec.getNullable();
    return factory.createTypeWithNullability(type, nullable);
  }

  private static SqlTypeName typeName(SqlBasicTypeNameSpec b) {
    return SqlTypeName.get(b.getTypeName().getSimple().toUpperCase(Locale.ROOT));
  }

  private static RelDataType basic(SqlBasicTypeNameSpec b, RelDataTypeFactory factory) {
    SqlTypeName t = typeName(b);
    if (t == SqlTypeName.TIMESTAMP && b.getPrecision() > 3) {
      throw new SqlProblem(b.getParserPos(), "TIMESTAMP holds epoch milliseconds: its precision is at most 3");
    }
    if (b.getPrecision() >= 0 && b.getScale() >= 0 && t.allowsPrecScale(true, true)) {
      return factory.createSqlType(t, b.getPrecision(), b.getScale());
    }
    if (b.getPrecision() >= 0 && t.allowsPrecNoScale()) {
      return factory.createSqlType(t, b.getPrecision());
    }
    return t == SqlTypeName.TIMESTAMP ? factory.createSqlType(t, 3) : factory.createSqlType(t);
  }
}
