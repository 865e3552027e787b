package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Translates a GROUP BY without a window into an unbounded group aggregate, whose results are an
 * upsert stream ({@code {_op, keys..., aggregates...}}, a record per change of a group) that only
 * a sink may take: written straight into the sink, its keys and aggregates are named as the
 * sink's columns. A transform before it makes its keys fields when they are expressions or the
 * input is filtered.
 *
 * <p>A GROUP BY over the results of another unbounded GROUP BY (an updating input) is an unbounded
 * group aggregate over its upsert stream: it groups by keys of the inner one (the inner one's keys
 * named as the outer one's), each inner group's new result replacing its last; COUNT, SUM and AVG
 * only, which take a replaced result out again.
 */
final class GroupAggregates {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  /** The change-kind field of an upsert stream. */
  static final String OP = "_op";

  private final Translator t;

  GroupAggregates(Translator t) {
    this.t = t;
  }

  /**
   * The group aggregate of {@code agg}.
   *
   * @param names the name of each output column of {@code agg}, or null for its own names
   */
  Stream aggregate(Aggregate agg, List<String> names) {
    if (agg.getGroupType() != Aggregate.Group.SIMPLE) {
      throw new Unsupported("GROUPING SETS, ROLLUP and CUBE are not supported", org.apache.calcite.sql.SqlKind.GROUPING_SETS);
    }
    List<String> out = names != null ? names : agg.getRowType().getFieldNames();
    Aggregate inner = updating(agg.getInput());
    if (inner != null) {
      return overUpdates(agg, out, inner, columnsOf(agg.getInput()));
    }
    Stream in = t.input(agg.getInput());
    List<Integer> keys = agg.getGroupSet().asList();
    List<String> keyBy = out.subList(0, keys.size());
    boolean plain = keysAre(in, keys, keyBy);
    Stream records = plain ? in : t.materialize(in.project(used(agg)), inputNames(agg, keyBy));
    List<Integer> used = plain ? null : used(agg);
    ObjectNode aggregate = JSON.objectNode();
    List<String> aggNames = out.subList(keys.size(), out.size());
    for (int i = 0; i < agg.getAggCallList().size(); i++) {
      AggregateCall call = agg.getAggCallList().get(i);
      aggregate.put(aggNames.get(i), AggregateText.of(call, c -> records.exprs().get(used == null ? c : used.indexOf(c))));
    }
    return operator(records, keyBy, aggregate, out);
  }

  /**
   * The unbounded GROUP BY whose results {@code rel} is, as they are or projected onto some of its
   * columns; else null.
   */
  private Aggregate updating(RelNode rel) {
    RelNode below = rel;
    if (rel instanceof Calc calc) {
      RexProgram p = calc.getProgram();
      if (p.getCondition() != null || TopNs.has(calc)
          || !p.getProjectList().stream().allMatch(r -> p.expandLocalRef(r) instanceof RexInputRef)) {
        return null;
      }
      below = calc.getInput();
    }
    return below instanceof Aggregate a && !t.windowed(a) ? a : null;
  }

  /** For each column of {@code rel} (an aggregate, or a projection of one), the aggregate's column. */
  private static List<Integer> columnsOf(RelNode rel) {
    if (rel instanceof Calc calc) {
      RexProgram p = calc.getProgram();
      return p.getProjectList().stream().map(r -> ((RexInputRef) p.expandLocalRef(r)).getIndex()).toList();
    }
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
      all.add(i);
    }
    return all;
  }

  /**
   * {@code agg} over the upsert stream of {@code inner}, whose column {@code columns.get(c)} is
   * {@code agg}'s input column c: the inner aggregate is written with {@code agg}'s keys named as
   * its output names them, so that the outer one reads them as they are.
   */
  private Stream overUpdates(Aggregate agg, List<String> out, Aggregate inner, List<Integer> columns) {
    List<Integer> keys = agg.getGroupSet().asList();
    List<String> keyBy = out.subList(0, keys.size());
    int innerKeys = inner.getGroupCount();
    List<String> innerNames = new ArrayList<>(Collections.nCopies(inner.getRowType().getFieldCount(), null));
    for (int i = 0; i < keys.size(); i++) {
      int c = columns.get(keys.get(i));
      if (c >= innerKeys || innerNames.get(c) != null) {
        throw new Unsupported("a GROUP BY over the results of an unbounded GROUP BY groups by keys of that one, each "
            + "once: an inner group's results must stay in one outer group as they are replaced", SqlKind.SELECT);
      }
      innerNames.set(c, keyBy.get(i));
    }
    Set<String> taken = new HashSet<>(out);
    taken.add(OP);
    List<String> own = new ArrayList<>(inner.getRowType().getFieldNames());
    List<String> read = agg.getInput().getRowType().getFieldNames();
    for (int i = read.size() - 1; i >= 0; i--) {
      own.set(columns.get(i), read.get(i)); // as the outer query names them
    }
    for (int c = 0; c < innerNames.size(); c++) {
      if (innerNames.get(c) == null) {
        String n = own.get(c);
        while (!taken.add(n)) {
          n = n + "_";
        }
        innerNames.set(c, n);
      }
    }
    for (AggregateCall call : agg.getAggCallList()) {
      SqlKind kind = call.getAggregation().getKind();
      if (kind == SqlKind.MIN || kind == SqlKind.MAX || call.isDistinct()) {
        throw new Unsupported(call.getAggregation().getName() + (call.isDistinct() ? "(DISTINCT ...)" : "")
            + " over the results of an unbounded GROUP BY is not supported: each inner group's new result replaces "
            + "its last, which must be taken out of the aggregate again; COUNT, SUM and AVG can", call.getAggregation()
            .getName());
      }
    }
    Stream updates = aggregate(inner, innerNames);
    ObjectNode aggregate = JSON.objectNode();
    List<String> aggNames = out.subList(keys.size(), out.size());
    for (int i = 0; i < agg.getAggCallList().size(); i++) {
      aggregate.put(aggNames.get(i), AggregateText.of(agg.getAggCallList().get(i),
          c -> Names.quote(innerNames.get(columns.get(c)))));
    }
    return operator(updates, keyBy, aggregate, out);
  }

  /**
   * Adds the unbounded {@code aggregate} over {@code input} grouped by {@code keyBy}; its upsert
   * stream, its columns {@code out} (the keys, then the aggregates).
   */
  private Stream operator(Stream input, List<String> keyBy, ObjectNode aggregate, List<String> out) {
    ObjectNode body = JSON.objectNode();
    body.put("input", input.node());
    if (!keyBy.isEmpty()) {
      var k = body.putArray("keyBy");
      keyBy.forEach(k::add);
    }
    body.set("aggregate", aggregate);
    String id = t.operator("aggregate", body);
    List<String> fields = new ArrayList<>();
    fields.add(OP);
    fields.addAll(out);
    return Stream.of(id, fields, -1, 0, null).withColumns(Stream.quoted(out), -1, null).asUpsert();
  }

  /** Whether the records are unfiltered and hold the keys as fields named {@code keyBy}. */
  private static boolean keysAre(Stream in, List<Integer> keys, List<String> keyBy) {
    if (in.filter() != null) {
      return false;
    }
    for (int i = 0; i < keys.size(); i++) {
      if (!keyBy.get(i).equals(in.field(keys.get(i)))) {
        return false;
      }
    }
    return true;
  }

  /** The input columns the aggregate reads: its keys first, then its aggregates' arguments. */
  private static List<Integer> used(Aggregate agg) {
    ImmutableBitSet.Builder b = ImmutableBitSet.builder();
    agg.getGroupSet().forEach(b::set);
    for (AggregateCall call : agg.getAggCallList()) {
      call.getArgList().forEach(b::set);
      if (call.filterArg >= 0) {
        b.set(call.filterArg);
      }
    }
    return b.build().asList();
  }

  /** Field names for the used input columns: the keys named {@code keyBy}, the others their own, unclashing. */
  private static List<String> inputNames(Aggregate agg, List<String> keyBy) {
    List<String> all = agg.getInput().getRowType().getFieldNames();
    List<Integer> keys = agg.getGroupSet().asList();
    Set<String> taken = new HashSet<>(keyBy);
    taken.add(OP);
    List<String> names = new ArrayList<>();
    for (int c : used(agg)) {
      int k = keys.indexOf(c);
      if (k >= 0) {
        names.add(keyBy.get(k));
      } else {
        String n = all.get(c);
        while (!taken.add(n)) {
          n = n + "_";
        }
        names.add(n);
      }
    }
    return names;
  }
}
