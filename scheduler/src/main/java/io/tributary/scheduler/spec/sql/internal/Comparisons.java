package io.tributary.scheduler.spec.sql.internal;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Refuses comparisons of a string with a number or a timestamp, which Calcite's validator accepts
 * (and its conversion then casts the string): in a job such a comparison is a mistake, and a
 * string that is no number would make every record malformed.
 */
final class Comparisons extends SqlBasicVisitor<Void> {
  private final SqlValidator validator;

  private Comparisons(SqlValidator validator) {
    this.validator = validator;
  }

  /**
   * Checks the comparisons of {@code statement}, which {@code validator} validated.
   *
   * @throws SqlProblem at the first comparison of a string with something else
   */
  static void check(SqlValidator validator, SqlNode statement) {
    statement.accept(new Comparisons(validator));
  }

  @Override
  public Void visit(SqlCall call) {
    if (call.getKind().belongsTo(SqlKind.BINARY_COMPARISON) && call.operandCount() == 2) {
      RelDataType a = type(call.operand(0));
      RelDataType b = type(call.operand(1));
      if (a != null && b != null && character(a) != character(b) && !isNull(a) && !isNull(b)) {
        throw new SqlProblem(call.getParserPosition(), "cannot compare " + a.getSqlTypeName() + " with "
            + b.getSqlTypeName() + " ('" + call.getOperator().getName() + "'); CAST one of them");
      }
    }
    return super.visit(call);
  }

  private RelDataType type(SqlNode node) {
    try {
      return validator.getValidatedNodeTypeIfKnown(node);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static boolean character(RelDataType t) {
    return SqlTypeFamily.CHARACTER.contains(t);
  }

  private static boolean isNull(RelDataType t) {
    return t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL;
  }
}
