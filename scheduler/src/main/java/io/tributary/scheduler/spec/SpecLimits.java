package io.tributary.scheduler.spec;

import java.util.List;
import java.util.Map;

/**
 * How large a spec may be, checked before any expression is parsed, so that validating or planning
 * a spec costs a bounded amount of work whoever sends it. Each expression is bounded too, by the
 * expression parser itself (length, nesting, operators), before Calcite sees it.
 */
public final class SpecLimits {
  /** Sources, and sinks, per job. */
  public static final int MAX_SOURCES = 16;
  public static final int MAX_SINKS = 16;
  /** Operators per job. */
  public static final int MAX_OPERATORS = 64;
  /** Output fields of one {@code select}. */
  public static final int MAX_SELECT_FIELDS = 256;
  /** Aggregates of one window. */
  public static final int MAX_AGGREGATES = 64;
  /** Fields of one {@code keyBy}. */
  public static final int MAX_KEY_FIELDS = 16;
  /** Rows one top-N keeps per partition. */
  public static final int MAX_TOP_N = 10_000;

  private SpecLimits() {}

  /** Adds an error for each count over its limit; false if the spec is too large to validate further. */
  static boolean job(JobSpec spec, List<SpecError> errors) {
    boolean ok = count(spec.sources().size(), MAX_SOURCES, "/sources", "sources", errors);
    ok &= count(spec.sinks().size(), MAX_SINKS, "/sinks", "sinks", errors);
    ok &= count(spec.operators().size(), MAX_OPERATORS, "/operators", "operators", errors);
    return ok;
  }

  /** Adds an error for each part of {@code op} over its limit; false if so. */
  static boolean operator(OperatorSpec op, String at, List<SpecError> errors) {
    boolean ok = count(size(op.select()), MAX_SELECT_FIELDS, at + "/select", "fields", errors);
    ok &= count(size(op.aggregate()), MAX_AGGREGATES, at + "/aggregate", "aggregates", errors);
    ok &= count(op.keyBy() == null ? 0 : op.keyBy().size(), MAX_KEY_FIELDS, at + "/keyBy", "key fields", errors);
    return ok;
  }

  private static int size(Map<?, ?> m) {
    return m == null ? 0 : m.size();
  }

  private static boolean count(int n, int max, String at, String what, List<SpecError> errors) {
    if (n > max) {
      errors.add(new SpecError(at, "has " + n + " " + what + "; at most " + max + " are allowed"));
      return false;
    }
    return true;
  }
}
