package io.tributary.scheduler.spec;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.plan.TopNPlan;
import io.tributary.stream.Changelog;
import io.tributary.scheduler.spec.internal.JsonValues;
import io.tributary.scheduler.spec.internal.ObjectReader;
import io.tributary.scheduler.spec.internal.Pointers;
import java.util.ArrayList;
import java.util.List;

/** Reads an operator's {@code topN}. */
final class TopNReader {
  private TopNReader() {}

  /** The top-N, or null if absent (or not an object: an error is added). */
  static TopNSpec read(ObjectReader o) {
    if (o == null) {
      return null;
    }
    List<String> partitionBy = o.stringList("partitionBy");
    if (partitionBy == null && !o.has("partitionBy")) {
      o.error("partitionBy", "is required: the fields of a partition (window_start and window_end among them for a "
          + "top-N per window; [] for one global partition)");
    }
    List<TopNSpec.SortKey> orderBy = orderBy(o);
    Integer limit = o.integer("limit");
    if (limit == null && !o.has("limit")) {
      o.error("limit", "is required: how many rows of each partition to emit");
    } else if (limit != null && (limit < 1 || limit > SpecLimits.MAX_TOP_N)) {
      o.error("limit", "must be between 1 and " + SpecLimits.MAX_TOP_N + ", got " + limit);
    }
    String rankField = o.string("rankField", null);
    if (partitionBy != null && !TopNPlan.perWindow(partitionBy) && limit != null && limit > 1 && rankField == null
        && !o.has("rankField")) {
      o.error("rankField", "is required for an unbounded top-N (partitionBy without window_end) of more than one "
          + "row: its output is an upsert stream keyed by the partition and the rank");
    }
    if (partitionBy != null && rankField != null && partitionBy.contains(rankField)) {
      o.error("rankField", "must not be a partitionBy field: '" + rankField + "'");
    } else if (Changelog.FIELD.equals(rankField)) {
      o.error("rankField", "'" + Changelog.FIELD + "' says whether a result is an insert or an update; choose "
          + "another name");
    }
    o.rejectUnknown();
    return new TopNSpec(partitionBy, orderBy, limit, rankField);
  }

  private static List<TopNSpec.SortKey> orderBy(ObjectReader o) {
    JsonNode node = o.field("orderBy");
    if (node == null || !node.isArray() || node.isEmpty()) {
      o.error("orderBy", "must be a non-empty list such as [{field: bids, desc: true}]"
          + (node == null || node.isArray() ? "" : ", found " + JsonValues.describe(node)));
      return null;
    }
    List<TopNSpec.SortKey> keys = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      ObjectReader k = ObjectReader.of(node.get(i), Pointers.child(o.pointerOf("orderBy"), i), o.errors());
      if (k == null) {
        return null;
      }
      String field = k.requiredString("field");
      boolean desc = false;
      JsonNode d = k.field("desc");
      if (d != null && !d.isBoolean()) {
        k.error("desc", "must be true or false");
      } else if (d != null) {
        desc = d.booleanValue();
      }
      String nulls = k.enumValue("nulls", List.of("first", "last"), "last");
      k.rejectUnknown();
      keys.add(new TopNSpec.SortKey(field, desc, nulls));
    }
    return keys;
  }
}
