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
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;

/**
 * Translates the relational plans of a job's INSERT statements into the spec's sources,
 * operators and sinks ({@link SpecDocument}). Parts of plans that are alike (the same view read
 * twice, the same subquery in two statements) are translated once and their operators shared.
 *
 * <p>Each relational node becomes: a table scan, the table's source; a calculation (filter and
 * projection), a transform operator, or nothing when it only renames, reorders or drops columns;
 * an aggregate over a window table function, a window operator ({@link WindowAggregates}); the
 * INSERT, a sink, after a transform giving records exactly the sink's columns.
 */
final class Translator {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final SpecDocument doc;
  private final Catalog catalog;
  private final RexBuilder rex;
  private final Map<String, Stream> memo = new HashMap<>();
  private final Map<String, String> conformed = new HashMap<>();
  private final WindowAggregates windows = new WindowAggregates(this);
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
      RelNode input = modify.getInput();
      Stream in = input instanceof Calc calc && !memo.containsKey(RelOptUtil.toString(calc))
          ? calc(calc, sink.columns()) : translate(input);
      doc.sink(sink, conform(in, sink.columns()), positions.statement());
    } catch (Unsupported u) {
      throw new SqlProblem(positions.of(u), u.getMessage());
    }
  }

  /** The node whose records hold exactly {@code columns}, read from {@code in} by position. */
  private String conform(Stream in, List<String> columns) {
    if (in.exact() && in.fields().equals(columns)) {
      return in.node();
    }
    String key = in.node() + " " + in.fields() + " as " + columns;
    String known = conformed.get(key);
    if (known != null) {
      return known;
    }
    ObjectNode select = JSON.objectNode();
    for (int i = 0; i < columns.size(); i++) {
      select.put(columns.get(i), Names.quote(in.fields().get(i)));
    }
    ObjectNode body = JSON.objectNode();
    body.put("input", in.node());
    body.set("select", select);
    String id = operator("select", body);
    conformed.put(key, id);
    return id;
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
    } else if (rel instanceof Calc calc) {
      s = calc(calc, calc.getRowType().getFieldNames());
    } else if (rel instanceof Aggregate aggregate) {
      s = windows.aggregate(aggregate);
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
    return new Stream(def.name(), def.columns(), def.timeColumn(), 0, null, false);
  }

  /**
   * A calculation: a transform operator of its condition and projections, the projections named
   * {@code names}; only a different view of its input's records when it just picks columns.
   */
  private Stream calc(Calc calc, List<String> names) {
    RexProgram program = calc.getProgram();
    if (program.containsAggs() || program.getExprList().stream().anyMatch(e -> e instanceof RexOver)) {
      throw new Unsupported("window functions (OVER) are not supported yet", SqlKind.OVER);
    }
    Stream in = translate(calc.getInput());
    RexNode condition = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
    List<RexNode> projects = program.getProjectList().stream().map(p -> (RexNode) program.expandLocalRef(p)).toList();
    List<Integer> refs = refs(projects);
    ObjectNode body = JSON.objectNode();
    body.put("input", in.node());
    if (condition != null) {
      body.put("filter", text(in).of(condition));
    }
    if (refs != null && condition == null) {
      return in.project(refs);
    }
    ObjectNode select = body.putObject("select");
    for (int i = 0; i < projects.size(); i++) {
      select.put(names.get(i), text(in).of(projects.get(i)));
    }
    String id = operator("select", body);
    return new Stream(id, names, refs(projects, in.time()), in.timeOffset(), moved(in, projects), true);
  }

  /** The input columns {@code projects} read, if each is a bare column; else null. */
  private static List<Integer> refs(List<RexNode> projects) {
    List<Integer> refs = new ArrayList<>();
    for (RexNode p : projects) {
      if (!(p instanceof RexInputRef ref)) {
        return null;
      }
      refs.add(ref.getIndex());
    }
    return refs;
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

  /** Expression texts over the fields of {@code in}. */
  RexText text(Stream in) {
    return new RexText(rex, i -> Names.quote(in.fields().get(i)));
  }

  RexBuilder rex() {
    return rex;
  }

  /** Adds an operator of the current statement. */
  String operator(String kind, ObjectNode body) {
    return doc.operator(kind, body, positions.statement(), context);
  }

  private static Unsupported unsupported(RelNode rel) {
    String type = rel.getRelTypeName().replaceFirst("^Logical", "");
    return switch (type) {
      case "Join" -> new Unsupported("JOIN is not supported yet", SqlKind.JOIN);
      case "Union", "Intersect", "Minus" -> new Unsupported(type.toUpperCase() + " is not supported yet",
          type.equals("Union") ? SqlKind.UNION : type.equals("Intersect") ? SqlKind.INTERSECT : SqlKind.EXCEPT);
      case "Sort" -> new Unsupported("ORDER BY, LIMIT and OFFSET are not supported in a streaming job",
          SqlKind.ORDER_BY);
      case "Values" -> new Unsupported("VALUES is not supported: a job reads its tables", SqlKind.VALUES);
      case "TableFunctionScan" -> new Unsupported("a window table function (TUMBLE, HOP, SESSION, CUMULATE) must be "
          + "aggregated: GROUP BY window_start, window_end", SqlKind.OTHER_FUNCTION);
      default -> new Unsupported(type + " is not supported", (String) null);
    };
  }
}
