package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.ObjectReader;
import java.util.List;
import java.util.Map;

/** Reads one element of {@code operators}. */
final class OperatorReader {
  private static final List<String> WINDOW_TYPES = List.of("tumbling", "sliding", "session", "cumulate");

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
    TopNSpec topN = TopNReader.read(r.object("topN"));
    r.rejectUnknown();
    return new OperatorSpec(id, input, filter, select, keyBy, window, aggregate, union, join, topN);
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
    long size = shape(o, type, "size", "tumbling", "sliding", "cumulate");
    long slide = shape(o, type, "slide", "sliding");
    long gap = shape(o, type, "gap", "session");
    long step = shape(o, type, "step", "cumulate");
    Long lateness = o.duration("allowedLateness", false, 0L);
    String lateOutput = o.string("lateOutput", null);
    o.rejectUnknown();
    if (slide > size && size > 0) {
      o.error("slide", "must not be longer than size");
    }
    if (step > 0 && size > 0 && size % step != 0) {
      o.error("step", "must divide size (" + size + " ms) into equal steps, got " + step + " ms");
    }
    return new WindowSpec(type, size, slide, gap, lateness == null ? 0 : lateness, lateOutput,
        "cumulate".equals(type) ? (Long) step : null);
  }

  private static String missingType(ObjectReader o) {
    o.error("type", "is required; one of: " + String.join(", ", WINDOW_TYPES));
    return null;
  }

  /** {@code a}, {@code a and b}, {@code a, b and c}. */
  private static String names(String... types) {
    int last = types.length - 1;
    return last == 0 ? types[0] : String.join(", ", List.of(types).subList(0, last)) + " and " + types[last];
  }

  /** A positive duration that windows of {@code types} require and others reject; 0 if absent or wrong. */
  private static long shape(ObjectReader o, String type, String field, String... types) {
    boolean applies = type == null || List.of(types).contains(type);
    if (!applies) {
      if (o.has(field)) {
        o.error(field, "does not apply to a " + type + " window; it is for " + names(types) + " windows");
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
