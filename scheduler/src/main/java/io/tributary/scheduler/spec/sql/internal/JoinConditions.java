package io.tributary.scheduler.spec.sql.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * A join's condition taken apart: the equalities of a left and a right column (its keys), and the
 * bounds it sets on the distance between the right and the left time column ({@code right.t -
 * left.t} between {@code lower} and {@code upper}, when it compares them directly, as in {@code
 * b.ts BETWEEN a.ts AND a.ts + INTERVAL '1' MINUTE}); every conjunct that is not a key stays a
 * residual condition.
 */
final class JoinConditions {
  /** A key: left column {@code left} equals right column {@code right} (indexes within each side). */
  record Key(int left, int right) {}

  final List<Key> keys = new ArrayList<>();
  final List<RexNode> residual = new ArrayList<>();
  /** The least and greatest {@code right.t - left.t} the condition allows; null when unbounded. */
  Long lower;
  Long upper;

  /**
   * @param leftCount the number of left columns (right columns follow them)
   * @param leftTime the left time column, or -1
   * @param rightTime the right time column (within the right side), or -1
   */
  static JoinConditions of(RexNode condition, int leftCount, int leftTime, int rightTime, RexBuilder rex) {
    JoinConditions c = new JoinConditions();
    for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(rex, null, condition))) {
      if (!c.key(conjunct, leftCount)) {
        c.residual.add(conjunct);
        if (leftTime >= 0 && rightTime >= 0) {
          c.bound(conjunct, leftTime, leftCount + rightTime);
        }
      }
    }
    return c;
  }

  private boolean key(RexNode conjunct, int leftCount) {
    if (conjunct.getKind() != SqlKind.EQUALS) {
      return false;
    }
    List<RexNode> ops = ((RexCall) conjunct).getOperands();
    if (!(ops.get(0) instanceof RexInputRef a) || !(ops.get(1) instanceof RexInputRef b)) {
      return false;
    }
    if (a.getIndex() < leftCount && b.getIndex() >= leftCount) {
      keys.add(new Key(a.getIndex(), b.getIndex() - leftCount));
      return true;
    }
    if (b.getIndex() < leftCount && a.getIndex() >= leftCount) {
      keys.add(new Key(b.getIndex(), a.getIndex() - leftCount));
      return true;
    }
    return false;
  }

  /** A linear form {@code l * left.t + r * right.t + c}. */
  private record Linear(int l, int r, long c) {
    Linear minus(Linear o) {
      return new Linear(l - o.l, r - o.r, c - o.c);
    }
  }

  /** Adds the bound {@code conjunct} sets on {@code right.t - left.t}, if it sets one. */
  private void bound(RexNode conjunct, int left, int right) {
    SqlKind kind = conjunct.getKind();
    if (!kind.belongsTo(SqlKind.COMPARISON) || kind == SqlKind.EQUALS || kind == SqlKind.NOT_EQUALS) {
      return;
    }
    List<RexNode> ops = ((RexCall) conjunct).getOperands();
    Linear a = linear(ops.get(0), left, right);
    Linear b = linear(ops.get(1), left, right);
    if (a == null || b == null) {
      return;
    }
    boolean greater = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    boolean strict = kind == SqlKind.GREATER_THAN || kind == SqlKind.LESS_THAN;
    Linear d = greater ? a.minus(b) : b.minus(a); // d >= 0 (d > 0 when strict)
    long c = strict ? d.c - 1 : d.c; // d.l * L + d.r * R + c >= 0
    if (d.l == -1 && d.r == 1) {
      lower = lower == null ? -c : Math.max(lower, -c); // R - L >= -c
    } else if (d.l == 1 && d.r == -1) {
      upper = upper == null ? c : Math.min(upper, c); // R - L <= c
    }
  }

  /** {@code e} as a linear form of the two time columns, or null when it is none. */
  private static Linear linear(RexNode e, int left, int right) {
    if (e instanceof RexInputRef ref) {
      return ref.getIndex() == left ? new Linear(1, 0, 0) : ref.getIndex() == right ? new Linear(0, 1, 0) : null;
    }
    if (e instanceof RexLiteral lit) {
      BigDecimal v = lit.getValueAs(BigDecimal.class);
      return v == null || v.scale() > 0 && v.stripTrailingZeros().scale() > 0 ? null : new Linear(0, 0, v.longValue());
    }
    if (e.getKind() == SqlKind.CAST) {
      return linear(((RexCall) e).getOperands().get(0), left, right);
    }
    if (e.getKind() == SqlKind.PLUS || e.getKind() == SqlKind.MINUS) {
      Linear x = linear(((RexCall) e).getOperands().get(0), left, right);
      Linear y = linear(((RexCall) e).getOperands().get(1), left, right);
      if (x == null || y == null) {
        return null;
      }
      return e.getKind() == SqlKind.PLUS ? new Linear(x.l + y.l, x.r + y.r, x.c + y.c) : x.minus(y);
    }
    return null;
  }
}
