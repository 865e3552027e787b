package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Translates GROUP BY over windows into window operators: an aggregate over a window table
 * function ({@code TUMBLE}, {@code HOP}, {@code SESSION}) grouped by {@code window_start},
 * {@code window_end} and keys; and an aggregate over window results grouped by their
 * {@code window_start} and {@code window_end} (a cascade, as Flink runs it), a tumbling window of
 * the distance between consecutive window ends over results stamped {@code window_end - 1}.
 */
final class WindowAggregates {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  /** Fields every window result has besides keys and aggregates. */
  private static final Set<String> WINDOW_FIELDS = Set.of("window_start", "window_end", "revision");

  private final Translator t;

  WindowAggregates(Translator t) {
    this.t = t;
  }

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
    Stream in = t.translate(input);
    if (in.window() != null && in.window().start() >= 0 && agg.getGroupSet().get(in.window().start())
        && agg.getGroupSet().get(in.window().end())) {
      return cascade(agg, in);
    }
    throw new Unsupported("GROUP BY without window_start and window_end of a window (TUMBLE, HOP, SESSION) is "
        + "not supported yet", SqlKind.SELECT);
  }

  /** An aggregate over {@code TUMBLE|HOP|SESSION(...)}, through an optional calculation. */
  private Stream overWindow(Aggregate agg, Calc calc, TableFunctionScan tvf) {
    WindowCall w = WindowCall.of(tvf);
    if (w.function().equals("CUMULATE")) {
      throw new Unsupported("CUMULATE windows are not supported yet", "CUMULATE");
    }
    Stream x = t.translate(tvf.getInput(0));
    int n = x.fields().size();
    if (w.timeColumn() != x.time() || x.timeOffset() != 0) {
      throw new Unsupported(w.function() + "'s DESCRIPTOR must name the event-time column of its input (the column "
          + "of WATERMARK FOR, passed on unchanged)", "DESCRIPTOR");
    }
    List<RexNode> columns = columns(calc, tvf);
    RexNode condition = calc == null || calc.getProgram().getCondition() == null ? null
        : calc.getProgram().expandLocalRef(calc.getProgram().getCondition());
    Keys keys = keys(agg, columns, n);
    ImmutableBitSet windowColumns = ImmutableBitSet.of(n, n + 1);
    checkNoWindowColumns(condition, windowColumns);
    for (AggregateCall call : agg.getAggCallList()) {
      for (int arg : args(call)) {
        checkNoWindowColumns(columns.get(arg), windowColumns);
      }
    }
    boolean plain = condition == null && keys.exprs.stream().allMatch(e -> e instanceof RexInputRef);
    Stream in = plain ? x : preWindow(x, condition, keys, agg, columns);
    List<String> keyBy = new ArrayList<>();
    for (int i = 0; i < keys.groups.size(); i++) {
      keyBy.add(plain ? x.fields().get(((RexInputRef) keys.exprs.get(i)).getIndex()) : keys.names.get(i));
    }
    checkSessionKeys(w, keys, plain);
    RexText text = t.text(x);
    ObjectNode window = w.spec();
    List<String> aggNames = new ArrayList<>();
    ObjectNode aggregate = aggregates(agg, keyBy, aggNames, i -> text.of(columns.get(i)));
    String id = windowOperator(in.node(), keyBy, window, aggregate);
    return result(agg, id, keys, keyBy, aggNames, new Stream.Window(window, w.aligned() ? w.period() : 0,
        w.size(), 0, 0));
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

  /** The grouping: which group is window_start, which window_end, and the keys' expressions. */
  private static final class Keys {
    int start = -1;
    int end = -1;
    final List<Integer> groups = new ArrayList<>();
    final List<RexNode> exprs = new ArrayList<>();
    final List<String> names = new ArrayList<>();
  }

  private static Keys keys(Aggregate agg, List<RexNode> columns, int n) {
    Keys k = new Keys();
    List<String> inputNames = agg.getInput().getRowType().getFieldNames();
    for (int g : agg.getGroupSet()) {
      RexNode e = columns.get(g);
      if (e instanceof RexInputRef ref && ref.getIndex() == n) {
        k.start = g;
      } else if (e instanceof RexInputRef ref && ref.getIndex() == n + 1) {
        k.end = g;
      } else {
        checkNoWindowColumns(e, ImmutableBitSet.of(n, n + 1));
        k.groups.add(g);
        k.exprs.add(e);
        k.names.add(inputNames.get(g));
      }
    }
    if (k.start < 0 || k.end < 0) {
      throw new Unsupported("GROUP BY over a window must name both window_start and window_end", SqlKind.SELECT);
    }
    return k;
  }

  private static void checkNoWindowColumns(RexNode e, ImmutableBitSet window) {
    if (e != null && RexUtil.containsInputRef(e) && !org.apache.calcite.plan.RelOptUtil.InputFinder.bits(e)
        .intersect(window).isEmpty()) {
      throw new Unsupported("window_start and window_end can be grouped by and selected, but not used in expressions "
          + "or conditions before the GROUP BY", SqlKind.SELECT);
    }
  }

  private static List<Integer> args(AggregateCall call) {
    List<Integer> args = new ArrayList<>(call.getArgList());
    if (call.filterArg >= 0) {
      args.add(call.filterArg);
    }
    return args;
  }

  /** A transform before the window: the filter, the keys as fields, and the input's fields. */
  private Stream preWindow(Stream x, RexNode condition, Keys keys, Aggregate agg, List<RexNode> columns) {
    RexText text = t.text(x);
    ObjectNode body = JSON.objectNode();
    body.put("input", x.node());
    if (condition != null) {
      body.put("filter", text.of(condition));
    }
    ImmutableBitSet used = ImmutableBitSet.of();
    for (AggregateCall call : agg.getAggCallList()) {
      for (int arg : args(call)) {
        used = used.union(org.apache.calcite.plan.RelOptUtil.InputFinder.bits(columns.get(arg)));
      }
    }
    Set<String> taken = new HashSet<>();
    for (int c : used) {
      taken.add(x.fields().get(c));
    }
    ObjectNode select = body.putObject("select");
    for (int i = 0; i < keys.exprs.size(); i++) {
      String name = fresh(keys.names.get(i), taken);
      keys.names.set(i, name);
      select.put(name, text.of(keys.exprs.get(i)));
    }
    for (int c : used) {
      select.put(x.fields().get(c), Names.quote(x.fields().get(c)));
    }
    String id = t.operator("select", body);
    return new Stream(id, x.fields(), -1, 0, null, false);
  }

  private static void checkSessionKeys(WindowCall w, Keys keys, boolean plain) {
    if (!w.function().equals("SESSION")) {
      return;
    }
    Set<Integer> grouped = new HashSet<>();
    for (RexNode e : keys.exprs) {
      grouped.add(e instanceof RexInputRef ref ? ref.getIndex() : -1);
    }
    if (!plain || !grouped.equals(new HashSet<>(w.keys()))) {
      throw new Unsupported("a SESSION window is per key: its DESCRIPTOR of keys must name exactly the columns it is "
          + "grouped by besides window_start and window_end", "SESSION");
    }
  }

  /** The spec's aggregates of {@code agg}, named after its output columns, not clashing with keys. */
  private static ObjectNode aggregates(Aggregate agg, List<String> keyBy, List<String> names,
      java.util.function.IntFunction<String> column) {
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

  /** The stream of a window operator's results, in the aggregate's column order. */
  private static Stream result(Aggregate agg, String id, Keys keys, List<String> keyBy, List<String> aggNames,
      Stream.Window window) {
    List<String> fields = new ArrayList<>();
    int startOut = -1;
    int endOut = -1;
    for (int g : agg.getGroupSet()) {
      if (g == keys.start) {
        startOut = fields.size();
        fields.add("window_start");
      } else if (g == keys.end) {
        endOut = fields.size();
        fields.add("window_end");
      } else {
        fields.add(keyBy.get(keys.groups.indexOf(g)));
      }
    }
    fields.addAll(aggNames);
    return new Stream(id, fields, endOut, -1, window.moved(startOut, endOut), false);
  }

  /** An aggregate over window results grouped by their window_start and window_end. */
  private Stream cascade(Aggregate agg, Stream in) {
    Stream.Window w = in.window();
    if (w.period() == 0) {
      throw new Unsupported("results of SESSION windows cannot be grouped by window again", SqlKind.SELECT);
    }
    Keys keys = new Keys();
    List<String> keyBy = new ArrayList<>();
    for (int g : agg.getGroupSet()) {
      if (g == w.start()) {
        keys.start = g;
      } else if (g == w.end()) {
        keys.end = g;
      } else {
        keys.groups.add(g);
        keyBy.add(in.fields().get(g));
      }
    }
    ObjectNode tumbling = JSON.objectNode().put("type", "tumbling").put("size", w.period() + "ms");
    List<String> aggNames = new ArrayList<>();
    ObjectNode aggregate = aggregates(agg, keyBy, aggNames, i -> Names.quote(in.fields().get(i)));
    String id = windowOperator(in.node(), keyBy, tumbling, aggregate);
    Stream out = result(agg, id, keys, keyBy, aggNames, w);
    return w.period() == w.size() ? out : withWindowStart(out, w);
  }

  /**
   * {@code out} with window_start set back to the start of the windows grouped ({@code window_end}
   * less the size for sliding windows, the last multiple of the size before it for cumulating ones).
   */
  private Stream withWindowStart(Stream out, Stream.Window w) {
    String end = Names.quote("window_end");
    boolean cumulate = w.spec().get("type").asText().equals("cumulate");
    String start = cumulate ? "((" + end + " - 1) / " + w.size() + " * " + w.size() + ")"
        : "(" + end + " - " + w.size() + ")";
    ObjectNode body = JSON.objectNode();
    body.put("input", out.node());
    ObjectNode select = body.putObject("select");
    for (int i = 0; i < out.fields().size(); i++) {
      String f = out.fields().get(i);
      select.put(f, i == out.window().start() ? start : Names.quote(f));
    }
    String id = t.operator("select", body);
    return new Stream(id, out.fields(), out.time(), out.timeOffset(), out.window(), true);
  }
}
