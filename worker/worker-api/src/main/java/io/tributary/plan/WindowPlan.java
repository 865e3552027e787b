package io.tributary.plan;

/**
 * A window shape. Tumbling: {@code size}. Sliding: {@code size} and {@code slide}. Session:
 * {@code gap} (a session spans first event to last event plus the gap; sessions that meet merge).
 * Cumulate: {@code size} and a step (kept as {@code slideMillis}), which divides the size: for
 * each period of {@code size} the windows {@code [start, start + step)}, {@code [start, start + 2 *
 * step)}, ... up to {@code [start, start + size)}, as Flink SQL's {@code CUMULATE}. Windows align
 * to the epoch, as in Flink.
 */
public record WindowPlan(Type type, long sizeMillis, long slideMillis, long gapMillis) {
  public enum Type { TUMBLING, SLIDING, SESSION, CUMULATE }

  public static WindowPlan tumbling(long size) {
    return new WindowPlan(Type.TUMBLING, size, size, 0);
  }

  public static WindowPlan sliding(long size, long slide) {
    return new WindowPlan(Type.SLIDING, size, slide, 0);
  }

  public static WindowPlan session(long gap) {
    return new WindowPlan(Type.SESSION, 0, 0, gap);
  }

  /** Cumulating windows of at most {@code size}, growing by {@code step}. */
  public static WindowPlan cumulate(long size, long step) {
    return new WindowPlan(Type.CUMULATE, size, step, 0);
  }
}
