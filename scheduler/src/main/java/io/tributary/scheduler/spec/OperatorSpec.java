package io.tributary.scheduler.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * An operator of the spec. Every part is optional (null when absent). A valid operator reads one
 * {@code input} or the {@code union} of several, and has at least one of filter, select, keyBy and
 * window; an aggregate with a window aggregates per window, an aggregate without one is an
 * unbounded group aggregate.
 *
 * @param id unique among sources, operators, sinks and side outputs
 * @param input a source id, an operator id or a side output name; null when {@code union} names the inputs
 * @param filter a SQL boolean expression
 * @param select output field to SQL expression, in output order
 * @param keyBy key field names; empty with a window: one global window
 * @param window the window, with {@code aggregate}
 * @param aggregate output field to aggregate call such as {@code sum(price)}, in output order
 * @param union the inputs whose records this operator takes alike, instead of {@code input}
 * @param join a join of two inputs, instead of {@code input}; {@code filter} and {@code select}
 *     then apply to its joined rows
 * @param topN the best rows of each partition of each window, alone in its operator
 */
// union, join, topN: absent from the fingerprint when null, so specs written before them keep theirs
public record OperatorSpec(
    String id, String input, String filter, Map<String, String> select, List<String> keyBy,
    WindowSpec window, Map<String, String> aggregate,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<String> union,
    @JsonInclude(JsonInclude.Include.NON_NULL) JoinSpec join,
    @JsonInclude(JsonInclude.Include.NON_NULL) TopNSpec topN) {
  public OperatorSpec {
    select = Copies.map(select);
    keyBy = Copies.list(keyBy);
    aggregate = Copies.map(aggregate);
    union = Copies.list(union);
  }

  /** An operator that reads one input. */
  public OperatorSpec(String id, String input, String filter, Map<String, String> select, List<String> keyBy,
      WindowSpec window, Map<String, String> aggregate) {
    this(id, input, filter, select, keyBy, window, aggregate, null, null, null);
  }

  /** Whether this operator windows without a key: one window for the whole stream. */
  public boolean isGlobalWindow() {
    return window != null && (keyBy == null || keyBy.isEmpty());
  }

  /**
   * The names this operator reads, in input order: a join's left and right, else {@code union}'s,
   * else {@code input} alone (empty when none is given; a join's missing side is null). Not a
   * property of the spec's JSON form.
   */
  public List<String> inputNames() {
    if (join != null) {
      return java.util.Arrays.asList(join.left(), join.right()); // null where the spec lacks one
    }
    if (union != null) {
      return union;
    }
    return input == null ? List.of() : List.of(input);
  }
}
