package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.ObjectReader;
import java.util.List;
import java.util.Map;

/** Reads one element of {@code operators}. */
final class OperatorReader {
  private static final List<String> WINDOW_TYPES = List.of("tumbling", "sliding", "session");

  private OperatorReader() {}

  static OperatorSpec read(ObjectReader r) {
    String id = r.requiredString("id");
    JoinSpec join = JoinReader.read(r.object("join"));
    List<String> union = r.stringList("union");
    String input = join != null || r.has("join") ? joinsInput(r) : inputOf(r, union);
    String filter = r.string("filter", null);
    Map<String, String> select = r.stringMap("select", false);
    List<String> keyBy = r.stringList("keyBy");
    WindowSpec window = window(r.object("window"));
    Map<String, String> aggregate = r.stringMap("aggregate", false);
    r.rejectUnknown();
    return new OperatorSpec(id, input, filter, select, keyBy, window, aggregate, union, join);
  }

  /** A join names its inputs itself: neither input nor union. */
  private static String joinsInput(ObjectReader r) {
    for (String field : List.of("input", "union")) {
      if (r.has(field)) {
        r.error(field, "a join reads its own inputs, join.left and join.right: remove " + field);
      }
    }
    return null;
  }

  /** {@code input}, required unless {@code union} names the inputs; never both. */
  private static String inputOf(ObjectReader r, List<String> union) {
    if (union == null && !r.has("union")) {
      return r.requiredString("input");
    }
    if (r.has("input")) {
      r.error("input", "an operator reads one input or a union of several, not both: move '"
          + r.string("input", null) + "' into union");
      return null;
    }
    if (union != null && union.size() < 2) {
      r.error("union", "must name at least two inputs" + (union.isEmpty() ? ""
          : " (one input is written input: " + union.get(0) + ")"));
    }
    return null;
  }

  static WindowSpec window(ObjectReader o) {
    if (o == null) {
      return null;
    }
    String type = o.has("type") ? o.enumValue("type", WINDOW_TYPES, null) : missingType(o);
    long size = shape(o, type, "size", "tumbling", "sliding");
    long slide = shape(o, type, "slide", "sliding");
    long gap = shape(o, type, "gap", "session");
    Long lateness = o.duration("allowedLateness", false, 0L);
    String lateOutput = o.string("lateOutput", null);
    o.rejectUnknown();
    if (slide > size && size > 0) {
      o.error("slide", "must not be longer than size");
    }
    return new WindowSpec(type, size, slide, gap, lateness == null ? 0 : lateness, lateOutput);
  }

  private static String missingType(ObjectReader o) {
    o.error("type", "is required; one of: " + String.join(", ", WINDOW_TYPES));
    return null;
  }

  /** A positive duration that windows of {@code types} require and others reject; 0 if absent or wrong. */
  private static long shape(ObjectReader o, String type, String field, String... types) {
    boolean applies = type == null || List.of(types).contains(type);
    if (!applies) {
      if (o.has(field)) {
        o.error(field, "does not apply to a " + type + " window; it is for " + String.join(" and ", types) + " windows");
      }
      return 0;
    }
    if (type != null && !o.has(field)) {
      o.error(field, "is required for a " + type + " window");
      return 0;
    }
    Long millis = o.duration(field, true, 0L);
    return millis == null ? 0 : millis;
  }
}
