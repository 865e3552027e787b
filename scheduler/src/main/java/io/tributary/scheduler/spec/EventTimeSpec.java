package io.tributary.scheduler.spec;

/**
 * Where a source's event time comes from and how its watermarks are made (DESIGN C3).
 *
 * @param field the record field with epoch milliseconds or an ISO-8601 instant
 * @param maxOutOfOrdernessMillis default 0
 * @param idleTimeoutMillis 0 when not set: a split is never considered idle
 */
public record EventTimeSpec(String field, long maxOutOfOrdernessMillis, long idleTimeoutMillis) {}
