package io.tributary.scheduler.spec;

/**
 * An event-time window of an operator. Durations are milliseconds; 0 means not written.
 *
 * @param type {@code tumbling} (uses size), {@code sliding} (size and slide, 0 &lt; slide &lt;=
 *     size), {@code session} (gap) or {@code cumulate} (size and step, the step dividing the size)
 * @param allowedLatenessMillis default 0
 * @param lateOutput side output name for records beyond the allowed lateness; null: dropped
 * @param stepMillis a cumulate window's step; null for other types (and then absent from the
 *     fingerprint, so specs written before it keep theirs)
 */
public record WindowSpec(
    String type, long sizeMillis, long slideMillis, long gapMillis, long allowedLatenessMillis,
    String lateOutput, @com.fasterxml.jackson.annotation.JsonInclude(
        com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Long stepMillis) {}
