package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;

/**
 * Translates the relational plans of a job's INSERT statements into the spec's sources,
 * operators and sinks ({@link SpecDocument}). Parts of plans that are alike (the same view read
 * twice, the same subquery in two statements) are translated once and their operators shared.
 *
 * <p>Each relational node becomes: a table scan, the table's source; a calculation (filter and
 * projection), a condition and expressions of the stream ({@link Stream}), which become a transform
 * where the records must hold them (before a window's keys, into a sink); an aggregate over a
 * window table function, a window operator ({@link WindowAggregates}); the INSERT, a sink, after a
 * transform giving records exactly the sink's columns.
 */
final class Translator {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final SpecDocument doc;
  private final Catalog catalog;
  private final RexBuilder rex;
  private final Map<String, Stream> memo = new HashMap<>();
  private final Map<String, String> materialized = new HashMap<>();
  private final WindowAggregates windows = new WindowAggregates(this);
  private final GroupAggregates groups = new GroupAggregates(this);
  private final Joins joins = new Joins(this);
  private final TopNs topNs = new TopNs(this);
  private Positions positions;
  private String context;

  Translator(SpecDocument doc, Catalog catalog, RexBuilder rex) {
    this.doc = doc;
    this.catalog = catalog;
    this.rex = rex;
  }

  /**
   * Translates an INSERT's plan into {@code sink}.
   *
   * @param positions of the statement, for errors
   * @throws SqlProblem if the plan asks for something Tributary cannot run
   */
  void insert(TableModify modify, TableDef sink, Positions positions) {
    this.positions = positions;
    this.context = "INSERT INTO " + sink.name();
    try {
      if (doc.isSource(sink.name())) {
        throw new SqlProblem(positions.statement(), "table '" + sink.name() + "' is read by this job: a table is "
            + "either a source or a sink of it");
      }
      if (doc.isSink(sink.name())) {
        throw new SqlProblem(positions.statement(), "table '" + sink.name() + "' is written by an earlier INSERT: "
            + "write one INSERT ... SELECT ... UNION ALL SELECT ... instead");
      }
      Stream upsert = modify.getInput() instanceof Calc c && TopNs.has(c) && !topNs.perWindow(c)
          ? topNs.unbounded(c, sink.columns()) : upsert(modify.getInput(), sink.columns());
      if (upsert != null) {
        doc.sink(sink, upsert.node(), positions.statement());
      } else {
        doc.sink(sink, materialize(translate(modify.getInput()), sink.columns()).node(), positions.statement());
      }
    } catch (Unsupported u) {
      throw new SqlProblem(positions.of(u), u.getMessage());
    }
  }

  /**
   * A stream of a node whose records hold exactly {@code names}, the columns of {@code in}: a
   * transform of its pending filter and expressions, unless its records are those already. Alike
   * requests share one operator.
   */
  Stream materialize(Stream in, List<String> names) {
    if (in.holdsExactly(names)) {
      return in;
    }
    String key = in.node() + "\n" + in.filter() + "\n" + in.exprs() + "\n" + names;
    String id = materialized.get(key);
    if (id == null) {
      ObjectNode body = JSON.objectNode();
      body.put("input", in.node());
      if (in.filter() != null) {
        body.put("filter", in.filter());
      }
      ObjectNode select = body.putObject("select");
      for (int i = 0; i < names.size(); i++) {
        select.put(names.get(i), in.exprs().get(i));
      }
      id = operator("select", body);
      materialized.put(key, id);
    }
    return Stream.of(id, names, in.time(), in.timeOffset(), in.window());
  }

  /**
   * The upsert stream of an unbounded GROUP BY written straight into a sink whose columns are
   * {@code columns} (its keys and aggregates named as them, since no operator may take an upsert
   * stream to rename them), or null when {@code input} is none.
   */
  private Stream upsert(RelNode input, List<String> columns) {
    Calc calc = input instanceof Calc c ? c : null;
    RelNode below = calc == null ? input : calc.getInput();
    if (!(below instanceof Aggregate agg) || windows.windowed(agg)) {
      return null;
    }
    List<String> names = new ArrayList<>(java.util.Collections.nCopies(agg.getRowType().getFieldCount(), null));
    for (int i = 0; i < columns.size(); i++) {
      int column = i;
      if (calc != null) {
        RexNode e = calc.getProgram().expandLocalRef(calc.getProgram().getProjectList().get(i));
        column = calc.getProgram().getCondition() == null && e instanceof RexInputRef ref ? ref.getIndex() : -1;
      }
      if (column < 0 || names.get(column) != null) {
        throw new Unsupported("an unbounded GROUP BY (one without a window) gives an upsert stream, which only a "
            + "sink may take: select its columns as they are, each once, with no condition (HAVING) or expression",
            SqlKind.SELECT);
      }
      names.set(column, columns.get(i));
    }
    if (names.contains(null)) {
      throw new Unsupported("an unbounded GROUP BY writes every key and aggregate: select each of them",
          SqlKind.SELECT);
    }
    return groups.aggregate(agg, names);
  }

  /** The stream of {@code rel}'s rows, which an operator reads: not an upsert stream. */
  Stream input(RelNode rel) {
    Stream s = translate(rel);
    if (s.upsert()) {
      throw new Unsupported("an unbounded GROUP BY (one without a window) gives an upsert stream, which only a sink "
          + "may take; group by window_start and window_end of a window to read its results further", SqlKind.SELECT);
    }
    return s;
  }

  /** The stream of {@code rel}'s rows. */
  Stream translate(RelNode rel) {
    String key = RelOptUtil.toString(rel);
    Stream known = memo.get(key);
    if (known != null) {
      return known;
    }
    Stream s;
    if (rel instanceof TableScan scan) {
      s = scan(scan);
    } else if (rel instanceof Calc calc && TopNs.has(calc)) {
      s = topNs.topN(calc);
    } else if (rel instanceof Calc calc && calc.getInput() instanceof Join join
        && !memo.containsKey(RelOptUtil.toString(join))) {
      s = joins.join(join, calc.getProgram());
    } else if (rel instanceof Calc calc) {
      s = calc(calc);
    } else if (rel instanceof Aggregate aggregate) {
      Stream windowed = windows.aggregate(aggregate);
      s = windowed != null ? windowed : groups.aggregate(aggregate, null);
    } else if (rel instanceof Join join) {
      s = joins.join(join);
    } else if (rel instanceof Union union) {
      s = union(union);
    } else if (rel instanceof TableFunctionScan tvf && WindowCall.is(tvf)) {
      s = windows.assign(tvf);
    } else {
      throw unsupported(rel);
    }
    memo.put(key, s);
    return s;
  }

  private Stream scan(TableScan scan) {
    List<String> name = scan.getTable().getQualifiedName();
    TableDef def = catalog.tables().get(name.get(name.size() - 1));
    if (doc.isSink(def.name())) {
      throw new SqlProblem(positions.statement(), "table '" + def.name() + "' is written by this job: a table is "
          + "either a source or a sink of it");
    }
    doc.source(def);
    return Stream.reading(def.name(), def.columns(), def.timeColumn());
  }

  /**
   * A calculation: its condition joins the stream's pending filter and its projections become the
   * stream's expressions; no operator is made here ({@link #materialize} makes one where needed).
   */
  private Stream calc(Calc calc) {
    RexProgram program = calc.getProgram();
    Stream in = input(calc.getInput());
    Stream s = calc(program, in);
    if (s.exprs().stream().anyMatch(e -> e.length() > LONG_EXPRESSION)) {
      s = calc(program, materialize(in, calc.getInput().getRowType().getFieldNames()));
    }
    return s;
  }

  /** Expressions longer than this are computed by an operator of their own rather than repeated. */
  private static final int LONG_EXPRESSION = 1500;

  private Stream calc(RexProgram program, Stream in) {
    RexText text = text(in);
    Stream s = in;
    if (program.getCondition() != null) {
      s = s.filtered(text.of(program.expandLocalRef(program.getCondition())));
    }
    List<RexNode> projects = program.getProjectList().stream().map(p -> (RexNode) program.expandLocalRef(p)).toList();
    List<String> exprs = new ArrayList<>();
    for (RexNode p : projects) {
      exprs.add(text.of(p));
    }
    return s.withColumns(exprs, refs(projects, in.time()), moved(in, projects));
  }

  /** The first output column that is input column {@code column} itself, or -1. */
  private static int refs(List<RexNode> projects, int column) {
    for (int i = 0; i < projects.size() && column >= 0; i++) {
      if (projects.get(i) instanceof RexInputRef ref && ref.getIndex() == column) {
        return i;
      }
    }
    return -1;
  }

  private static Stream.Window moved(Stream in, List<RexNode> projects) {
    if (in.window() == null) {
      return null;
    }
    int start = refs(projects, in.window().start());
    int end = refs(projects, in.window().end());
    return end < 0 ? null : in.window().moved(start, end);
  }

  /**
   * UNION ALL: the inputs' rows written with the union's column names, into a union operator. Its
   * time and window columns are the inputs' when they all agree on them.
   */
  private Stream union(Union union) {
    if (!union.all) {
      throw new Unsupported("UNION (without ALL) is not supported: write UNION ALL", SqlKind.UNION);
    }
    List<String> names = union.getRowType().getFieldNames();
    List<Stream> inputs = new ArrayList<>();
    for (RelNode input : union.getInputs()) {
      inputs.add(materialize(input(input), names));
    }
    Stream first = inputs.get(0);
    boolean sameTime = inputs.stream().allMatch(i -> i.time() == first.time() && i.timeOffset() == first.timeOffset());
    boolean sameWindow = inputs.stream().allMatch(i -> java.util.Objects.equals(i.window(), first.window()));
    ObjectNode body = JSON.objectNode();
    var ids = body.putArray("union");
    inputs.forEach(i -> ids.add(i.node()));
    String id = operator("union", body);
    return Stream.of(id, names, sameTime ? first.time() : -1, sameTime ? first.timeOffset() : 0,
        sameWindow ? first.window() : null);
  }

  /** Expression texts over the records of {@code in}, its columns read by its expressions. */
  RexText text(Stream in) {
    return new RexText(rex, i -> in.exprs().get(i));
  }

  /** Whether {@code agg} aggregates per window. */
  boolean windowed(Aggregate agg) {
    return windows.windowed(agg);
  }

  RexBuilder rex() {
    return rex;
  }

  /** Adds an operator of the current statement. */
  String operator(String kind, ObjectNode body) {
    return doc.operator(kind, body, positions.statement(), context);
  }

  private static Unsupported unsupported(RelNode rel) {
    org.apache.calcite.rex.RexSubQuery sub = rel instanceof org.apache.calcite.rel.core.Filter f
        ? org.apache.calcite.rex.RexUtil.SubQueryFinder.find(f.getCondition())
        : rel instanceof org.apache.calcite.rel.core.Project p ? org.apache.calcite.rex.RexUtil.SubQueryFinder.find(
            p.getProjects()) : null;
    if (sub != null) {
      return new Unsupported("a subquery in an expression (IN (SELECT ...), EXISTS, a scalar SELECT) is not "
          + "supported; write a JOIN", sub.getKind());
    }
    String type = rel.getRelTypeName().replaceFirst("^Logical", "");
    return switch (type) {
      case "Correlate" -> new Unsupported("LATERAL and correlated subqueries are not supported; write a JOIN",
          SqlKind.LATERAL);
      case "Match" -> new Unsupported("MATCH_RECOGNIZE is not supported", SqlKind.MATCH_RECOGNIZE);
      case "Intersect", "Minus" -> new Unsupported(type.toUpperCase() + " is not supported",
          type.equals("Intersect") ? SqlKind.INTERSECT : SqlKind.EXCEPT);
      case "Sort" -> new Unsupported("ORDER BY, LIMIT and OFFSET are not supported in a streaming job",
          SqlKind.ORDER_BY);
      case "Values" -> new Unsupported("VALUES is not supported: a job reads its tables", SqlKind.VALUES);
      case "TableFunctionScan" -> new Unsupported("table functions other than TUMBLE, HOP, SESSION and CUMULATE are "
          + "not supported", SqlKind.OTHER_FUNCTION);
      default -> new Unsupported(type + " is not supported", (String) null);
    };
  }
}
