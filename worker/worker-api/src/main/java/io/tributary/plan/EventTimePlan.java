package io.tributary.plan;

/**
 * Event time and watermarks of a source (contract C3).
 *
 * @param field the record field holding event time: epoch milliseconds or an ISO-8601 instant
 * @param maxOutOfOrdernessMillis watermark = max event time seen on a split minus this
 * @param idleTimeoutMillis a split without records for this long stops holding back the
 *     watermark; 0 = never idle
 */
public record EventTimePlan(String field, long maxOutOfOrdernessMillis, long idleTimeoutMillis) {}
