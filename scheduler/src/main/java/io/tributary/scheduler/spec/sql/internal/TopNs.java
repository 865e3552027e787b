package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Translates {@code ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...)} kept to {@code <= N} (or
 * {@code < N}, {@code = 1}) into the spec's top-N. Over rows of windows partitioned by their
 * {@code window_end}, a per-window top-N: the best N rows of each partition, emitted when the window
 * ends; the row number, when selected, is the top-N's rank; other conditions apply to the ranked rows.
 * Otherwise an unbounded top-N, whose upsert stream (keyed by the partition and the rank) goes
 * straight into a sink: its columns are input columns and the row number, named as the sink's.
 */
final class TopNs {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final Translator t;

  TopNs(Translator t) {
    this.t = t;
  }

  /** Whether {@code calc} computes a window function. */
  static boolean has(Calc calc) {
    return calc.getProgram().getExprList().stream().anyMatch(e -> e instanceof RexOver);
  }

  /** The one window function of {@code p}: a ROW_NUMBER(). */
  private static RexOver over(RexProgram p) {
    List<RexNode> overs = new ArrayList<>();
    for (int i = 0; i < p.getExprList().size(); i++) {
      RexNode e = p.getExprList().get(i);
      if (e instanceof RexOver) {
        overs.add(p.expandLocalRef(new RexLocalRef(i, e.getType())));
      }
    }
    RexOver over = (RexOver) overs.get(0);
    if (overs.size() > 1 || over.getKind() != SqlKind.ROW_NUMBER) {
      throw new Unsupported("the window functions are ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) kept to "
          + "<= N; not " + over.getOperator().getName(), SqlKind.OVER);
    }
    return over;
  }

  /** Whether {@code calc} (which {@link #has} a window function) ranks rows of windows per window. */
  boolean perWindow(Calc calc) {
    Stream.Window w = t.input(calc.getInput()).window();
    return w != null && refs(over(calc.getProgram()).getWindow().partitionKeys).contains(w.end());
  }

  /** A top-N per window. */
  Stream topN(Calc calc) {
    RexProgram p = calc.getProgram();
    RexOver over = over(p);
    Stream input = t.input(calc.getInput());
    Stream.Window w = input.window();
    List<Integer> partition = refs(over.getWindow().partitionKeys);
    if (w == null || !partition.contains(w.end())) {
      throw new Unsupported("ROW_NUMBER() without a window (not partitioned by a window's window_end) is an unbounded "
          + "top-N, whose results update as rows arrive (an upsert stream), which only a sink may take: INSERT it "
          + "into a sink as it is", SqlKind.OVER);
    }
    List<String> names = windowNames(calc.getInput().getRowType().getFieldNames(), w);
    Stream in = t.materialize(input, names);
    int rank = names.size();
    RexShuttle toRank = new RexShuttle() {
      @Override
      public RexNode visitOver(RexOver o) {
        return new RexInputRef(rank, o.getType());
      }
    };
    List<RexNode> conjuncts = new ArrayList<>();
    Integer limit = null;
    if (p.getCondition() != null) {
      for (RexNode c : RelOptUtil.conjunctions(p.expandLocalRef(p.getCondition()))) {
        Integer n = limit(c);
        if (n != null && limit == null) {
          limit = n;
        } else {
          conjuncts.add(c.accept(toRank));
        }
      }
    }
    if (limit == null) {
      throw new Unsupported("ROW_NUMBER() must be kept to its first rows: WHERE rownum <= N", SqlKind.OVER);
    }
    List<RexNode> projects = p.getProjectList().stream().map(r -> p.expandLocalRef(r).accept(toRank)).toList();
    boolean rankRead = !conjuncts.isEmpty() || projects.stream().anyMatch(e -> RelOptUtil.InputFinder.bits(e).get(rank));
    String rankField = rankRead ? fresh("rownum", names) : null;
    String id = emit(in, names, partition, over.getWindow().orderKeys, limit, rankField);
    List<String> fields = new ArrayList<>(names);
    if (rankField != null) {
      fields.add(rankField);
    }
    Stream.Window ranked = new Stream.Window(w.spec(), w.period(), w.size(), w.start(), w.end(), true);
    Stream out = Stream.of(id, fields, w.end(), -1, ranked);
    return project(out, conjuncts, projects, ranked);
  }

  /**
   * An unbounded top-N written straight into a sink whose columns are {@code columns}: each an
   * input column as it is or the row number (the rank), every partition and order column among
   * them; the condition only the limit.
   */
  Stream unbounded(Calc calc, List<String> columns) {
    RexProgram p = calc.getProgram();
    RexOver over = over(p);
    Stream input = t.input(calc.getInput());
    int width = calc.getInput().getRowType().getFieldCount();
    Integer limit = null;
    if (p.getCondition() != null) {
      for (RexNode c : RelOptUtil.conjunctions(p.expandLocalRef(p.getCondition()))) {
        Integer n = limit(c);
        if (n == null || limit != null) {
          throw new Unsupported("an unbounded top-N (ROW_NUMBER() without a window) is kept to its first rows and "
              + "nothing else: filter the rows before ranking them", SqlKind.OVER);
        }
        limit = n;
      }
    }
    if (limit == null) {
      throw new Unsupported("ROW_NUMBER() must be kept to its first rows: WHERE rownum <= N", SqlKind.OVER);
    }
    List<Integer> picked = new ArrayList<>();
    List<String> names = new ArrayList<>();
    String rankField = null;
    for (int i = 0; i < columns.size(); i++) {
      RexNode e = p.expandLocalRef(p.getProjectList().get(i));
      if (e instanceof RexOver && rankField == null) {
        rankField = columns.get(i);
      } else if (e instanceof RexInputRef ref && ref.getIndex() < width && !picked.contains(ref.getIndex())) {
        picked.add(ref.getIndex());
        names.add(columns.get(i));
      } else {
        throw new Unsupported("an unbounded top-N (ROW_NUMBER() without a window) gives an upsert stream, which only "
            + "a sink may take: select its columns as they are, each once, and the row number at most once",
            SqlKind.SELECT);
      }
    }
    List<Integer> partition = refs(over.getWindow().partitionKeys);
    List<Integer> ordered = new ArrayList<>();
    for (RexFieldCollation f : over.getWindow().orderKeys) {
      if (f.left instanceof RexInputRef ref) {
        ordered.add(ref.getIndex());
      }
    }
    List<Integer> needed = new ArrayList<>(partition);
    needed.addAll(ordered);
    if (!picked.containsAll(needed)) {
      throw new Unsupported("an unbounded top-N writes its partition and order columns: select each of them",
          SqlKind.SELECT);
    }
    if (limit > 1 && rankField == null) {
      throw new Unsupported("an unbounded top-N of more than one row is keyed by its partition and rank: select the "
          + "row number", SqlKind.SELECT);
    }
    Stream in = t.materialize(input.project(picked), names);
    List<RexFieldCollation> order = new ArrayList<>();
    for (RexFieldCollation f : over.getWindow().orderKeys) {
      order.add(f.left instanceof RexInputRef ref
          ? new RexFieldCollation(new RexInputRef(picked.indexOf(ref.getIndex()), ref.getType()), f.right) : f);
    }
    String id = emit(in, names, partition.stream().map(picked::indexOf).toList(), order, limit, rankField);
    List<String> fields = new ArrayList<>();
    fields.add(GroupAggregates.OP);
    fields.addAll(names);
    if (rankField != null) {
      fields.add(rankField);
    }
    return Stream.of(id, fields, -1, 0, null).withColumns(Stream.quoted(columns), -1, null).asUpsert();
  }

  /** {@code N} of {@code row_number <= N} (or {@code < N + 1}, {@code = 1}), else null. */
  private static Integer limit(RexNode c) {
    if (!(c instanceof RexCall call) || call.getOperands().size() != 2
        || !(call.getOperands().get(0) instanceof RexOver)
        || !(call.getOperands().get(1) instanceof RexLiteral lit)) {
      return null;
    }
    BigDecimal v = lit.getValueAs(BigDecimal.class);
    int n = v == null ? -1 : v.intValue();
    return switch (c.getKind()) {
      case LESS_THAN_OR_EQUAL -> n >= 1 ? n : null;
      case LESS_THAN -> n >= 2 ? n - 1 : null;
      case EQUALS -> n == 1 ? 1 : null;
      default -> null;
    };
  }

  private String emit(Stream in, List<String> names, List<Integer> partition, List<RexFieldCollation> order,
      int limit, String rankField) {
    ObjectNode spec = JSON.objectNode();
    ArrayNode by = spec.putArray("partitionBy");
    partition.forEach(c -> by.add(names.get(c)));
    ArrayNode orderBy = spec.putArray("orderBy");
    for (RexFieldCollation f : order) {
      if (!(f.left instanceof RexInputRef ref)) {
        throw new Unsupported("ROW_NUMBER() orders by columns, not expressions", SqlKind.OVER);
      }
      ObjectNode key = orderBy.addObject().put("field", names.get(ref.getIndex()));
      key.put("desc", f.getDirection() == RelFieldCollation.Direction.DESCENDING);
      key.put("nulls", f.getNullDirection() == RelFieldCollation.NullDirection.FIRST ? "first" : "last");
    }
    spec.put("limit", limit);
    if (rankField != null) {
      spec.put("rankField", rankField);
    }
    ObjectNode body = JSON.objectNode();
    body.put("input", in.node());
    body.set("topN", spec);
    return t.operator("top", body);
  }

  private Stream project(Stream out, List<RexNode> conjuncts, List<RexNode> projects, Stream.Window w) {
    RexText text = t.text(out);
    Stream s = conjuncts.isEmpty() ? out
        : out.filtered(text.of(RexUtil.composeConjunction(t.rex(), conjuncts)));
    List<String> exprs = new ArrayList<>();
    int time = -1;
    int start = -1;
    int end = -1;
    for (int i = 0; i < projects.size(); i++) {
      RexNode e = projects.get(i);
      exprs.add(text.of(e));
      if (e instanceof RexInputRef ref && ref.getIndex() == w.end() && end < 0) {
        end = i;
        time = i;
      } else if (e instanceof RexInputRef ref && ref.getIndex() == w.start() && start < 0) {
        start = i;
      }
    }
    return s.withColumns(exprs, time, end < 0 ? null : w.moved(start, end));
  }

  /** The columns' names with the window's bounds named window_start and window_end, as a top-N reads them. */
  private static List<String> windowNames(List<String> columns, Stream.Window w) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      String name = i == w.end() ? "window_end" : i == w.start() ? "window_start" : columns.get(i);
      names.add(name);
    }
    for (int i = 0; i < names.size(); i++) {
      if (i != w.end() && i != w.start() && (names.get(i).equals("window_end") || names.get(i).equals("window_start"))) {
        names.set(i, fresh(names.get(i), names));
      }
    }
    return names;
  }

  private static List<Integer> refs(List<RexNode> keys) {
    List<Integer> refs = new ArrayList<>();
    for (RexNode k : keys) {
      if (!(k instanceof RexInputRef ref)) {
        throw new Unsupported("ROW_NUMBER() is partitioned by columns, not expressions", SqlKind.OVER);
      }
      refs.add(ref.getIndex());
    }
    return refs;
  }

  private static String fresh(String name, List<String> taken) {
    String n = name;
    while (taken.contains(n)) {
      n = n + "_";
    }
    return n;
  }
}
