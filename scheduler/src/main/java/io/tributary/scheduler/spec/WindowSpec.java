package io.tributary.scheduler.spec;

/**
 * An event-time window of an operator. Durations are milliseconds; 0 means not written.
 *
 * @param type {@code tumbling} (uses size), {@code sliding} (size and slide, 0 &lt; slide &lt;=
 *     size) or {@code session} (gap)
 * @param allowedLatenessMillis default 0
 * @param lateOutput side output name for records beyond the allowed lateness; null: dropped
 */
public record WindowSpec(
    String type, long sizeMillis, long slideMillis, long gapMillis, long allowedLatenessMillis,
    String lateOutput) {}
