package io.tributary.plan;

import java.util.Map;

/**
 * Stateless per-record work: an optional filter, then an optional projection; or an assignment of
 * windows.
 *
 * @param filter a SQL boolean expression; null keeps every record
 * @param select output field to SQL expression, in output order; null passes records through
 * @param window null, or the windows to assign records to (tumbling, sliding or cumulate; never
 *     with filter or select): each record is emitted once per window that contains its timestamp,
 *     with {@code window_start} and {@code window_end} added (replacing fields of those names), as
 *     Flink SQL's window table-valued functions do
 */
public record TransformPlan(String id, String filter, Map<String, String> select, WindowPlan window)
    implements OperatorPlan {
  public TransformPlan {
    if (window != null && (window.type() == WindowPlan.Type.SESSION || filter != null || select != null)) {
      throw new IllegalArgumentException("a window assignment takes an aligned window and no filter or select");
    }
  }

  /** A filter and projection. */
  public TransformPlan(String id, String filter, Map<String, String> select) {
    this(id, filter, select, null);
  }
}
