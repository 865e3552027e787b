package io.tributary.worker.window;

import io.tributary.plan.WindowPlan;

/**
 * Assigns a timestamp to the epoch-aligned windows that contain it: tumbling and sliding windows
 * ({@link AlignedWindows}), cumulating ones ({@link CumulateWindows}). Session windows are not
 * assigned but merged, by their operator.
 */
public interface WindowAssigner {
  /**
   * The windows that contain {@code ts}, the one that ends last first; empty when {@code ts} falls
   * in a gap between windows. The returned array may be shared and must not be modified.
   */
  TimeWindow[] assign(long ts);

  /**
   * The assigner of {@code window}, or null for a session window.
   *
   * @throws IllegalArgumentException if its sizes are not positive
   */
  static WindowAssigner of(WindowPlan window) {
    return switch (window.type()) {
      case TUMBLING, SLIDING -> new AlignedWindows(window.sizeMillis(), window.slideMillis());
      case CUMULATE -> new CumulateWindows(window.sizeMillis(), window.slideMillis());
      case SESSION -> null;
    };
  }
}
