package io.tributary.scheduler.spec.sql.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * A window table function as the relational plan calls it: {@code TUMBLE(DESCRIPTOR(ts), size)},
 * {@code HOP(DESCRIPTOR(ts), slide, size)}, {@code SESSION(DESCRIPTOR(ts), [DESCRIPTOR(keys),]
 * gap)} or {@code CUMULATE(DESCRIPTOR(ts), step, size)}; its input's rows followed by
 * {@code window_start} and {@code window_end}.
 *
 * @param function TUMBLE, HOP, SESSION or CUMULATE
 * @param timeColumn the input column the DESCRIPTOR names
 * @param keys for SESSION, the input columns of its key DESCRIPTOR (empty: none given)
 * @param size a tumbling, sliding or cumulating window's size, in milliseconds
 * @param period a sliding window's slide, a cumulating window's step, a tumbling window's size;
 *     a session's gap
 */
record WindowCall(String function, int timeColumn, List<Integer> keys, long size, long period) {
  static final Set<String> FUNCTIONS = Set.of("TUMBLE", "HOP", "SESSION", "CUMULATE");
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** Whether {@code scan} calls a window function. */
  static boolean is(TableFunctionScan scan) {
    return scan.getCall() instanceof RexCall call
        && FUNCTIONS.contains(call.getOperator().getName().toUpperCase(Locale.ROOT));
  }

  /**
   * The window {@code scan} calls.
   *
   * @throws Unsupported for an offset, which Tributary's windows lack
   */
  static WindowCall of(TableFunctionScan scan) {
    RexCall call = (RexCall) scan.getCall();
    String function = call.getOperator().getName().toUpperCase(Locale.ROOT);
    List<RexNode> ops = call.getOperands();
    int time = columns(ops.get(0)).get(0);
    return switch (function) {
      case "TUMBLE" -> {
        noOffset(ops, 2, function);
        yield new WindowCall(function, time, List.of(), millis(ops.get(1)), millis(ops.get(1)));
      }
      case "HOP", "CUMULATE" -> {
        noOffset(ops, 3, function);
        yield new WindowCall(function, time, List.of(), millis(ops.get(2)), millis(ops.get(1)));
      }
      default -> {
        boolean keyed = ops.size() > 2;
        List<Integer> keys = keyed ? columns(ops.get(1)) : List.of();
        yield new WindowCall(function, time, keys, 0, millis(ops.get(ops.size() - 1)));
      }
    };
  }

  /** The window as the spec's {@code window} block. */
  ObjectNode spec() {
    ObjectNode w = JSON.objectNode();
    switch (function) {
      case "TUMBLE" -> w.put("type", "tumbling").put("size", size + "ms");
      case "HOP" -> w.put("type", "sliding").put("size", size + "ms").put("slide", period + "ms");
      case "CUMULATE" -> w.put("type", "cumulate").put("size", size + "ms").put("step", period + "ms");
      default -> w.put("type", "session").put("gap", period + "ms");
    }
    return w;
  }

  /** Whether consecutive windows end a fixed period apart (all but sessions). */
  boolean aligned() {
    return !function.equals("SESSION");
  }

  private static void noOffset(List<RexNode> ops, int count, String function) {
    if (ops.size() > count) {
      throw new Unsupported(function + " with an offset is not supported: windows are aligned to the epoch", function);
    }
  }

  private static List<Integer> columns(RexNode descriptor) {
    List<Integer> columns = new ArrayList<>();
    for (RexNode op : ((RexCall) descriptor).getOperands()) {
      columns.add(((RexInputRef) op).getIndex());
    }
    return columns;
  }

  private static long millis(RexNode interval) {
    Long v = ((RexLiteral) interval).getValueAs(Long.class);
    if (v == null || v <= 0) {
      throw new Unsupported("a window's sizes must be positive intervals", (String) null);
    }
    return v;
  }
}
