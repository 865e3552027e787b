package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.JsonValues;
import io.tributary.scheduler.spec.internal.ObjectReader;
import io.tributary.scheduler.spec.internal.Pointers;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Reads an operator's {@code join}. */
final class JoinReader {
  private JoinReader() {}

  /** The join, or null if absent (or not an object: an error is added). */
  static JoinSpec read(ObjectReader o) {
    if (o == null) {
      return null;
    }
    String left = o.requiredString("left");
    String right = o.requiredString("right");
    List<JoinSpec.KeyPair> on = on(o);
    WindowSpec window = OperatorReader.window(o.object("window"));
    JoinSpec.Bounds between = between(o.object("between"));
    Long ttl = o.duration("stateTtl", true, null);
    o.rejectUnknown();
    if (window != null && (window.allowedLatenessMillis() > 0 || window.lateOutput() != null)) {
      o.error("window", "a window join takes no allowedLateness or lateOutput: its late records are dropped and "
          + "counted");
    }
    if (o.has("window") && o.has("between")) {
      o.error("between", "a join has a window (a window join) or between (an interval join), not both");
    }
    if (o.has("stateTtl") && (o.has("window") || o.has("between"))) {
      o.error("stateTtl", "only a regular join (no window, no between) keeps state that needs a time-to-live; "
          + "a window or interval join drops its state when the watermark passes");
    }
    return new JoinSpec(left, right, on, window, between, ttl);
  }

  /** {@code on}: a non-empty list of {@code {left: field, right: field}}; null if absent or wrong. */
  private static List<JoinSpec.KeyPair> on(ObjectReader o) {
    JsonNode node = o.field("on");
    if (node == null) {
      o.error("on", "is required: the key pairs to join on, such as [{left: auction, right: id}]");
      return null;
    }
    if (!node.isArray() || node.isEmpty()) {
      o.error("on", "must be a non-empty list of key pairs such as {left: auction, right: id}, found "
          + JsonValues.describe(node));
      return null;
    }
    List<JoinSpec.KeyPair> pairs = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      ObjectReader pair = ObjectReader.of(node.get(i), Pointers.child(o.pointerOf("on"), i), o.errors());
      if (pair == null) {
        return null;
      }
      String left = pair.requiredString("left");
      String right = pair.requiredString("right");
      pair.rejectUnknown();
      if (left == null || right == null) {
        return null;
      }
      pairs.add(new JoinSpec.KeyPair(left, right));
    }
    return pairs;
  }

  /** {@code between: {lower, upper}}, signed durations with {@code lower <= upper}. */
  private static JoinSpec.Bounds between(ObjectReader o) {
    if (o == null) {
      return null;
    }
    for (String bound : List.of("lower", "upper")) {
      if (!o.has(bound)) {
        o.error(bound, "is required: the interval join keeps pairs with left.ts + lower <= right.ts <= "
            + "left.ts + upper");
      }
    }
    Long lower = o.signedDuration("lower");
    Long upper = o.signedDuration("upper");
    o.rejectUnknown();
    if (lower == null || upper == null) {
      return null;
    }
    if (lower > upper) {
      o.error("upper", "must not be below lower (" + lower + " ms), got " + upper + " ms");
      return null;
    }
    return new JoinSpec.Bounds(lower, upper);
  }
}
