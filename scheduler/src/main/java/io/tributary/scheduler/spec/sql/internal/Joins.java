package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Translates an inner JOIN into one of the spec's joins, by what its condition says besides its
 * keys (the equalities of a left and a right column):
 *
 * <ul>
 *   <li>a <b>window join</b> when both sides are results of the same windows and the keys include
 *       both sides' {@code window_end} (windows of results are one period long: a tumbling window of
 *       the distance between window ends, which the results' stamps, {@code window_end - 1}, fall in);
 *   <li>an <b>interval join</b> when the condition bounds the right time column between the left
 *       one plus two constants ({@code r.ts BETWEEN l.ts - INTERVAL ... AND l.ts + INTERVAL ...});
 *   <li>else a <b>regular join</b>, whose state grows with its inputs.
 * </ul>
 *
 * Every conjunct but the keys stays the join's filter (the bounds too: they read the columns, the
 * join reads record times), and the join's select writes the joined columns.
 */
final class Joins {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final Translator t;

  Joins(Translator t) {
    this.t = t;
  }

  /** The join, its output the joined columns. */
  Stream join(Join join) {
    return join(join, null);
  }

  /**
   * The join, with a calculation over its output folded in ({@code on}: its condition joins the
   * join's filter, its projections are the join's select); null: the joined columns.
   */
  Stream join(Join join, RexProgram on) {
    if (join.getJoinType() != JoinRelType.INNER) {
      throw new Unsupported(join.getJoinType() + " JOIN is not supported: joins are inner", SqlKind.JOIN);
    }
    List<String> leftNames = join.getLeft().getRowType().getFieldNames();
    List<String> rightNames = join.getRight().getRowType().getFieldNames();
    Stream left = t.materialize(t.input(join.getLeft()), leftNames);
    Stream right = t.materialize(t.input(join.getRight()), rightNames);
    JoinConditions c = JoinConditions.of(join.getCondition(), leftNames.size(), left.time(), right.time(), t.rex());
    if (c.keys.isEmpty()) {
      throw new Unsupported("a JOIN needs at least one equality of a left and a right column", SqlKind.JOIN);
    }
    ObjectNode spec = JSON.objectNode();
    spec.put("left", left.node());
    spec.put("right", right.node());
    ArrayNode keys = spec.putArray("on");
    c.keys.forEach(k -> keys.addObject().put("left", leftNames.get(k.left())).put("right", rightNames.get(k.right())));
    Stream.Window window = windowJoin(left, right, c);
    if (window != null) {
      spec.set("window", JSON.objectNode().put("type", "tumbling").put("size", window.period() + "ms"));
    } else if (c.lower != null && c.upper != null && c.lower <= c.upper) {
      long shift = right.timeOffset() - left.timeOffset();
      spec.putObject("between").put("lower", (c.lower + shift) + "ms").put("upper", (c.upper + shift) + "ms");
    }
    List<RexNode> residual = new ArrayList<>(c.residual);
    List<RexNode> projects = new ArrayList<>();
    List<String> names;
    if (on == null) {
      for (int i = 0; i < join.getRowType().getFieldCount(); i++) {
        projects.add(t.rex().makeInputRef(join, i));
      }
      names = join.getRowType().getFieldNames();
    } else {
      if (on.getCondition() != null) {
        residual.add(on.expandLocalRef(on.getCondition()));
      }
      on.getProjectList().forEach(r -> projects.add(on.expandLocalRef(r)));
      names = on.getOutputRowType().getFieldNames();
    }
    return emit(join, spec, residual, projects, names, window);
  }

  /** The window of a window join of {@code left} and {@code right}, or null when it is none. */
  private static Stream.Window windowJoin(Stream left, Stream right, JoinConditions c) {
    Stream.Window l = left.window();
    Stream.Window r = right.window();
    if (l == null || r == null || !l.results() || !r.results() || l.period() == 0 || l.period() != r.period()) {
      return null;
    }
    boolean ends = c.keys.stream().anyMatch(k -> k.left() == l.end() && k.right() == r.end());
    return ends ? l : null;
  }

  private Stream emit(Join join, ObjectNode spec, List<RexNode> residual, List<RexNode> projects, List<String> out,
      Stream.Window window) {
    List<String> leftNames = join.getLeft().getRowType().getFieldNames();
    List<String> rightNames = join.getRight().getRowType().getFieldNames();
    int n = leftNames.size();
    RexText text = new RexText(t.rex(), i -> Names.quote(i < n ? "l." + leftNames.get(i) : "r." + rightNames.get(i - n)));
    ObjectNode body = JSON.objectNode();
    body.set("join", spec);
    if (!residual.isEmpty()) {
      body.put("filter", text.of(RexUtil.composeConjunction(t.rex(), residual)));
    }
    ObjectNode select = body.putObject("select");
    int time = -1;
    int start = -1;
    for (int i = 0; i < out.size(); i++) {
      RexNode e = projects.get(i);
      select.put(out.get(i), text.of(e));
      if (window != null && e instanceof RexInputRef ref && ref.getIndex() == window.end() && time < 0) {
        time = i;
      } else if (window != null && e instanceof RexInputRef ref && ref.getIndex() == window.start() && start < 0) {
        start = i;
      }
    }
    String id = t.operator("join", body);
    return time < 0 ? Stream.of(id, out, -1, 0, null) : Stream.of(id, out, time, -1, window.moved(start, time));
  }
}
