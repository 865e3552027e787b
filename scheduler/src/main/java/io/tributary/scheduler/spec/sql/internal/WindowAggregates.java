package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Translates GROUP BY over windows into window operators: an aggregate over a window table
 * function ({@code TUMBLE}, {@code HOP}, {@code SESSION}, {@code CUMULATE}) grouped by {@code window_start},
 * {@code window_end} and keys; and an aggregate over window results grouped by their
 * {@code window_start} and {@code window_end} (a cascade, as Flink runs it): a tumbling window of
 * the distance between consecutive window ends, over results stamped {@code window_end - 1}.
 * Keys must be fields of the window's input; when they are expressions, or the input is filtered,
 * a transform before the window computes them.
 */
final class WindowAggregates {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  /** Fields every window result has besides keys and aggregates. */
  private static final Set<String> WINDOW_FIELDS = Set.of("window_start", "window_end", "revision");

  private final Translator t;

  WindowAggregates(Translator t) {
    this.t = t;
  }

  /** Whether {@code agg} aggregates windows (else it is an unbounded GROUP BY). */
  boolean windowed(Aggregate agg) {
    RelNode input = agg.getInput();
    RelNode below = input instanceof Calc c ? c.getInput() : input;
    if (below instanceof TableFunctionScan tvf && WindowCall.is(tvf)) {
      return true;
    }
    if (below instanceof Aggregate inner && !windowed(inner)) {
      return false; // the results of an unbounded GROUP BY, which are not rows of windows
    }
    Stream.Window w = t.translate(input).window();
    return w != null && w.start() >= 0 && agg.getGroupSet().get(w.start()) && agg.getGroupSet().get(w.end());
  }

  /**
   * Rows of a window table function read otherwise than by a GROUP BY (by a top-N, a join): a
   * window operator without aggregates assigning each record its windows, appending
   * {@code window_start} and {@code window_end} and keeping its time.
   */
  Stream assign(TableFunctionScan tvf) {
    WindowCall w = WindowCall.of(tvf);
    if (!w.aligned()) {
      throw new Unsupported("SESSION windows are known only when they close: GROUP BY their window_start and "
          + "window_end", "SESSION");
    }
    Stream x = t.input(tvf.getInput(0));
    if (w.timeColumn() != x.time() || x.timeOffset() != 0) {
      throw new Unsupported(w.function() + "'s DESCRIPTOR must name the event-time column of its input (the column "
          + "of WATERMARK FOR, passed on unchanged)", "DESCRIPTOR");
    }
    Stream records = x.filter() == null ? x : t.materialize(x, tvf.getInput(0).getRowType().getFieldNames());
    ObjectNode body = JSON.objectNode();
    body.put("input", records.node());
    body.set("window", w.spec());
    String id = t.operator("windows", body);
    List<String> exprs = new ArrayList<>(records.exprs());
    int n = exprs.size();
    exprs.add(Names.quote("window_start"));
    exprs.add(Names.quote("window_end"));
    Stream.Window window = new Stream.Window(w.spec(), w.period(), w.size(), n, n + 1, false);
    return new Stream(id, null, exprs, null, records.time(), 0, window, false);
  }

  /** The window operator of {@code agg}, or null when it is no aggregate over windows (an unbounded GROUP BY). */
  Stream aggregate(Aggregate agg) {
    if (agg.getGroupType() != Aggregate.Group.SIMPLE) {
      throw new Unsupported("GROUPING SETS, ROLLUP and CUBE are not supported", SqlKind.GROUPING_SETS);
    }
    RelNode input = agg.getInput();
    Calc calc = input instanceof Calc c ? c : null;
    RelNode below = calc == null ? input : calc.getInput();
    if (below instanceof TableFunctionScan tvf && WindowCall.is(tvf)) {
      return overWindow(agg, calc, tvf);
    }
    Stream in = t.input(input);
    Stream.Window w = in.window();
    if (w != null && w.start() >= 0 && agg.getGroupSet().get(w.start()) && agg.getGroupSet().get(w.end())) {
      if (!w.results()) {
        throw new Unsupported("GROUP BY window_start, window_end of rows that are not window results: aggregate the "
            + "window table function directly (FROM TABLE(TUMBLE(...)) GROUP BY window_start, window_end)",
            SqlKind.SELECT);
      }
      return cascade(agg, in);
    }
    return null;
  }

  /** An aggregate over {@code TUMBLE|HOP|SESSION(...)}, through an optional calculation. */
  private Stream overWindow(Aggregate agg, Calc calc, TableFunctionScan tvf) {
    WindowCall w = WindowCall.of(tvf);
    Stream x = t.input(tvf.getInput(0));
    int n = x.exprs().size();
    if (w.timeColumn() != x.time() || x.timeOffset() != 0) {
      throw new Unsupported(w.function() + "'s DESCRIPTOR must name the event-time column of its input (the column "
          + "of WATERMARK FOR, passed on unchanged)", "DESCRIPTOR");
    }
    List<RexNode> columns = columns(calc, tvf);
    RexProgram program = calc == null ? null : calc.getProgram();
    RexNode condition = program == null || program.getCondition() == null ? null
        : program.expandLocalRef(program.getCondition());
    Groups g = Groups.of(agg, i -> columns.get(i) instanceof RexInputRef ref ? ref.getIndex() - n : -1);
    ImmutableBitSet window = ImmutableBitSet.of(n, n + 1);
    checkNoWindowColumns(condition, window);
    for (int c : g.used(agg)) {
      checkNoWindowColumns(columns.get(c), window);
    }
    RexText text = t.text(x);
    Stream in = x;
    if (condition != null) {
      in = in.filtered(text.of(condition));
    }
    List<String> exprs = new ArrayList<>();
    for (RexNode c : columns) {
      exprs.add(isWindowColumn(c, window) ? "NULL" : text.of(c));
    }
    in = in.withColumns(exprs, -1, null);
    checkSessionKeys(w, g, columns);
    ObjectNode spec = w.spec();
    return windowed(agg, g, in, spec, new Stream.Window(spec, w.aligned() ? w.period() : 0, w.size(), 0, 0, true));
  }

  /**
   * The window operator of {@code agg} over {@code in} (whose columns are the aggregate's input),
   * with a transform before it unless its keys are fields of the records as they are.
   */
  private Stream windowed(Aggregate agg, Groups g, Stream in, ObjectNode spec, Stream.Window window) {
    boolean plain = in.filter() == null && g.keys.stream().allMatch(k -> in.field(k) != null);
    Stream records = plain ? in : t.materialize(in.project(g.used(agg)), names(agg, g.used(agg)));
    List<Integer> used = plain ? null : g.used(agg);
    IntFunction<Integer> at = c -> plain ? c : used.indexOf(c);
    List<String> keyBy = new ArrayList<>();
    for (int k : g.keys) {
      keyBy.add(records.field(at.apply(k)));
    }
    List<String> aggNames = new ArrayList<>();
    ObjectNode aggregate = aggregates(agg, keyBy, aggNames, c -> records.exprs().get(at.apply(c)));
    if (aggregate.isEmpty()) {
      // GROUP BY without aggregates: a window needs one; its results leave it out
      aggregate.put(fresh("_rows", new HashSet<>(keyBy)), "count(*)");
    }
    String id = windowOperator(records.node(), keyBy, spec, aggregate);
    return result(agg, id, g, keyBy, aggNames, window);
  }

  private static List<String> names(Aggregate agg, List<Integer> columns) {
    List<String> all = agg.getInput().getRowType().getFieldNames();
    return columns.stream().map(all::get).toList();
  }

  /** The columns an aggregate reads, as expressions over the window function's columns. */
  private static List<RexNode> columns(Calc calc, TableFunctionScan tvf) {
    if (calc == null) {
      List<RexNode> refs = new ArrayList<>();
      for (int i = 0; i < tvf.getRowType().getFieldCount(); i++) {
        refs.add(new RexInputRef(i, tvf.getRowType().getFieldList().get(i).getType()));
      }
      return refs;
    }
    RexProgram p = calc.getProgram();
    return p.getProjectList().stream().map(r -> (RexNode) p.expandLocalRef(r)).toList();
  }

  private static boolean isWindowColumn(RexNode e, ImmutableBitSet window) {
    return e instanceof RexInputRef ref && window.get(ref.getIndex());
  }

  private static void checkNoWindowColumns(RexNode e, ImmutableBitSet window) {
    if (e != null && !isWindowColumn(e, window) && !RelOptUtil.InputFinder.bits(e).intersect(window).isEmpty()) {
      throw new Unsupported("window_start and window_end can be grouped by and selected, but not used in expressions "
          + "or conditions before the GROUP BY", SqlKind.SELECT);
    }
  }

  private static void checkSessionKeys(WindowCall w, Groups g, List<RexNode> columns) {
    if (!w.function().equals("SESSION")) {
      return;
    }
    Set<Integer> grouped = new HashSet<>();
    for (int k : g.keys) {
      grouped.add(columns.get(k) instanceof RexInputRef ref ? ref.getIndex() : -1);
    }
    if (!grouped.equals(new HashSet<>(w.keys()))) {
      throw new Unsupported("a SESSION window is per key: its DESCRIPTOR of keys must name exactly the columns it is "
          + "grouped by besides window_start and window_end", "SESSION");
    }
  }

  /** The spec's aggregates of {@code agg}, named after its output columns, not clashing with keys. */
  private static ObjectNode aggregates(Aggregate agg, List<String> keyBy, List<String> names, IntFunction<String> column) {
    ObjectNode aggregate = JSON.objectNode();
    Set<String> taken = new HashSet<>(keyBy);
    taken.addAll(WINDOW_FIELDS);
    List<String> outNames = agg.getRowType().getFieldNames();
    int groups = agg.getGroupCount();
    for (int i = 0; i < agg.getAggCallList().size(); i++) {
      String name = fresh(outNames.get(groups + i), taken);
      names.add(name);
      aggregate.put(name, AggregateText.of(agg.getAggCallList().get(i), column));
    }
    return aggregate;
  }

  private static String fresh(String name, Set<String> taken) {
    String n = name;
    while (!taken.add(n)) {
      n = n + "_";
    }
    return n;
  }

  private String windowOperator(String input, List<String> keyBy, ObjectNode window, ObjectNode aggregate) {
    ObjectNode body = JSON.objectNode();
    body.put("input", input);
    var keys = body.putArray("keyBy");
    keyBy.forEach(keys::add);
    body.set("window", window);
    body.set("aggregate", aggregate);
    return t.operator("window", body);
  }

  /** The stream of a window operator's results, read in the aggregate's column order. */
  private static Stream result(Aggregate agg, String id, Groups g, List<String> keyBy, List<String> aggNames,
      Stream.Window window) {
    List<String> fields = new ArrayList<>(keyBy);
    fields.add("window_start");
    fields.add("window_end");
    fields.addAll(aggNames);
    fields.add("revision");
    List<String> exprs = new ArrayList<>();
    int startOut = -1;
    int endOut = -1;
    for (int c : agg.getGroupSet()) {
      if (c == g.start) {
        startOut = exprs.size();
        exprs.add(Names.quote("window_start"));
      } else if (c == g.end) {
        endOut = exprs.size();
        exprs.add(Names.quote("window_end"));
      } else {
        exprs.add(Names.quote(keyBy.get(g.keys.indexOf(c))));
      }
    }
    aggNames.forEach(a -> exprs.add(Names.quote(a)));
    return Stream.of(id, fields, endOut, -1, null).withColumns(exprs, endOut, window.moved(startOut, endOut));
  }

  /** An aggregate over window results grouped by their window_start and window_end. */
  private Stream cascade(Aggregate agg, Stream in) {
    Stream.Window w = in.window();
    if (w.period() == 0) {
      throw new Unsupported("results of SESSION windows cannot be grouped by window again", SqlKind.SELECT);
    }
    Groups g = Groups.of(agg, c -> c == w.start() ? 0 : c == w.end() ? 1 : -1);
    ObjectNode tumbling = JSON.objectNode().put("type", "tumbling").put("size", w.period() + "ms");
    Stream out = windowed(agg, g, in, tumbling, w);
    if (w.period() == w.size()) {
      return out;
    }
    boolean cumulate = w.spec().get("type").asText().equals("cumulate");
    String end = Names.quote("window_end");
    String start = cumulate ? "(((" + end + " - 1) / " + w.size() + ") * " + w.size() + ")"
        : "(" + end + " - " + w.size() + ")";
    List<String> exprs = new ArrayList<>(out.exprs());
    exprs.set(out.window().start(), start);
    return out.withColumns(exprs, out.time(), out.window());
  }

  /**
   * An aggregate's grouping: the column that is window_start, the one that is window_end, the keys.
   */
  private static final class Groups {
    int start = -1;
    int end = -1;
    final List<Integer> keys = new ArrayList<>();

    /** @param window 0 for a column that is window_start, 1 for window_end, else -1 */
    static Groups of(Aggregate agg, IntFunction<Integer> window) {
      Groups g = new Groups();
      for (int c : agg.getGroupSet()) {
        int which = window.apply(c);
        if (which == 0) {
          g.start = c;
        } else if (which == 1) {
          g.end = c;
        } else {
          g.keys.add(c);
        }
      }
      if (g.start < 0 || g.end < 0) {
        throw new Unsupported("GROUP BY over a window must name both window_start and window_end", SqlKind.SELECT);
      }
      return g;
    }

    /** The aggregate's input columns that its keys and aggregates read, in order. */
    List<Integer> used(Aggregate agg) {
      ImmutableBitSet.Builder b = ImmutableBitSet.builder();
      keys.forEach(b::set);
      for (AggregateCall call : agg.getAggCallList()) {
        call.getArgList().forEach(b::set);
        if (call.filterArg >= 0) {
          b.set(call.filterArg);
        }
      }
      return b.build().asList();
    }
  }
}
