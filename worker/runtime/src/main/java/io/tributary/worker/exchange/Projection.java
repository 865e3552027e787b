package io.tributary.worker.exchange;

import io.tributary.expr.Expressions;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.stream.Changelog;
import io.tributary.stream.Schema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Keeps only the named fields of records crossing an exchange, so a window that reads two fields
 * of a wide record does not pay for serializing the rest. Positions are cached per input schema
 * (schemas are interned). Fields missing from a record are left out. Not thread-safe: one per
 * sending task (two senders sharing one raced on its cache, and could pair one schema's positions
 * with another's field names).
 */
public final class Projection {
  private final List<String> fields;
  private Schema lastIn;
  private Schema lastOut;
  private int[] lastIndexes;

  public Projection(List<String> fields) {
    this.fields = List.copyOf(fields);
  }

  /**
   * The fields a receiving operator reads, when it reads fewer than it is sent: a window without a
   * late output, or a group aggregate, needs only its key fields and aggregate arguments (event
   * time travels with the record). Null: send everything.
   */
  public static Projection forReceiver(OperatorPlan receiver) {
    if (receiver instanceof GroupAggregatePlan g && g.inputKey() != null) {
      // over an upsert stream: also its change kind and key, which say what a record replaces
      List<String> keep = new ArrayList<>();
      keep.add(Changelog.FIELD);
      keep.addAll(g.inputKey());
      keep.addAll(g.keyBy());
      return of(keep, g.aggregates());
    }
    if (receiver instanceof GroupAggregatePlan g) {
      return of(g.keyBy(), g.aggregates());
    }
    if (!(receiver instanceof WindowAggregatePlan w) || w.lateOutput() != null) {
      return null;
    }
    return of(w.keyBy(), w.aggregates());
  }

  private static Projection of(List<String> keyBy, List<AggregatePlan> aggregates) {
    LinkedHashSet<String> fields = new LinkedHashSet<>(keyBy);
    for (AggregatePlan a : aggregates) {
      if (a.argument() != null) {
        fields.addAll(Expressions.referencedFields(a.argument()));
      }
    }
    return new Projection(new ArrayList<>(fields));
  }

  public List<String> fields() {
    return fields;
  }

  /** Positions in {@code in} of the kept fields, in output order. */
  int[] indexes(Schema in) {
    if (in != lastIn) {
      List<String> names = new ArrayList<>();
      List<Integer> idx = new ArrayList<>();
      for (String f : fields) {
        int i = in.indexOf(f);
        if (i >= 0 && !names.contains(f)) {
          names.add(f);
          idx.add(i);
        }
      }
      lastIndexes = idx.stream().mapToInt(Integer::intValue).toArray();
      lastOut = Schema.of(names);
      lastIn = in;
    }
    return lastIndexes;
  }

  /** The output schema for input schema {@code in}. */
  Schema schema(Schema in) {
    indexes(in);
    return lastOut;
  }
}
