package io.tributary.scheduler.spec;

import java.util.List;
import java.util.Map;

/**
 * An operator of the spec. Every part is optional (null when absent) but a valid operator has at
 * least one of filter, select, keyBy and window, and a window exactly when it has an aggregate.
 *
 * @param id unique among sources, operators, sinks and side outputs
 * @param input a source id, an operator id or a side output name
 * @param filter a SQL boolean expression
 * @param select output field to SQL expression, in output order
 * @param keyBy key field names; empty with a window: one global window
 * @param window the window, with {@code aggregate}
 * @param aggregate output field to aggregate call such as {@code sum(price)}, in output order
 */
public record OperatorSpec(
    String id, String input, String filter, Map<String, String> select, List<String> keyBy,
    WindowSpec window, Map<String, String> aggregate) {
  public OperatorSpec {
    select = Copies.map(select);
    keyBy = Copies.list(keyBy);
    aggregate = Copies.map(aggregate);
  }

  /** Whether this operator windows without a key: one window for the whole stream. */
  public boolean isGlobalWindow() {
    return window != null && (keyBy == null || keyBy.isEmpty());
  }
}
