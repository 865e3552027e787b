package io.tributary.scheduler.spec;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Periodic checkpoints. {@code unaligned} and {@code alignmentTimeoutMillis} are left out of the
 * spec's canonical JSON at their defaults, so that the fingerprint of a spec without them is what it
 * was before they existed.
 *
 * @param intervalMillis time between checkpoint triggers, greater than 0
 * @param mode {@code exactly-once} (default: aligned barriers) or {@code at-least-once} (barriers
 *     are not aligned: no input is held, and a restore may replay some records into state)
 * @param retain completed checkpoints kept (default {@value #DEFAULT_RETAIN})
 * @param unaligned with {@code exactly-once}: barriers overtake buffered records, which are logged
 *     into the checkpoint (default false)
 * @param alignmentTimeoutMillis with {@code unaligned}: a checkpoint aligns this long at a task
 *     before it turns unaligned there; 0 (the default) for unaligned from the start
 */
public record CheckpointSpec(long intervalMillis, String mode, int retain,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean unaligned,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long alignmentTimeoutMillis) {
  public static final int DEFAULT_RETAIN = 3;

  public CheckpointSpec(long intervalMillis, String mode, int retain) {
    this(intervalMillis, mode, retain, false, 0);
  }

  public CheckpointSpec(long intervalMillis, String mode) {
    this(intervalMillis, mode, DEFAULT_RETAIN);
  }

  public boolean exactlyOnce() {
    return !"at-least-once".equals(mode);
  }
}
