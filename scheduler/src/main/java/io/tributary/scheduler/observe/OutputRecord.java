package io.tributary.scheduler.observe;

import java.time.Instant;
import java.util.Map;

/**
 * A record an operator produced (a sink: wrote), from the job's live output sample. JSON-able:
 * field values are Long, Double, String, Boolean, null, or nested {@code Map}/{@code List}.
 *
 * @param subtask the operator subtask that produced it
 * @param emittedAt when it was produced (wall clock)
 * @param eventTime the record's event time, or null if it has none
 * @param fields the record's fields in order
 */
public record OutputRecord(String operatorId, int subtask, Instant emittedAt, Instant eventTime,
    Map<String, Object> fields) {}
