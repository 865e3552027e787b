package io.tributary.scheduler.spec;

/**
 * How many subtasks the job runs: {@code initial} at start, and the bounds the autoscaler may move
 * it within ({@code min == max} pins it). Written as a number {@code p} (pinned: all three are
 * {@code p}) or as {@code {initial, min, max}} where an absent {@code min} or {@code max} equals
 * {@code initial} and an absent {@code initial} equals {@code min} (or 1).
 */
public record ParallelismSpec(int initial, int min, int max) {
  /** Pinned at {@code p}. */
  public static ParallelismSpec fixed(int p) {
    return new ParallelismSpec(p, p, p);
  }

  /** Starts at {@code p} instead, widening the bounds to include it. */
  public ParallelismSpec withInitial(int p) {
    return new ParallelismSpec(p, Math.min(min, p), Math.max(max, p));
  }
}
