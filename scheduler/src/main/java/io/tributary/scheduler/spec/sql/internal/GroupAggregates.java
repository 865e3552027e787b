package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Translates a GROUP BY without a window into an unbounded group aggregate, whose results are an
 * upsert stream ({@code {_op, keys..., aggregates...}}, a record per change of a group) that only
 * a sink may take: written straight into the sink, its keys and aggregates are named as the
 * sink's columns. A transform before it makes its keys fields when they are expressions or the
 * input is filtered.
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
    ObjectNode body = JSON.objectNode();
    body.put("input", records.node());
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
