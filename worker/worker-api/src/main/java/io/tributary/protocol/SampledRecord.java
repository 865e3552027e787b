package io.tributary.protocol;

import java.util.Map;

/**
 * A record an operator subtask produced (a sink: wrote), taken by its output sample: workers keep
 * the last few per subtask, at most a few dozen a second, and send what is new.
 *
 * @param seq 0 for the first record the subtask's sample took in this attempt, then one more per
 *     record
 * @param emittedAtMillis wall-clock time when it was taken
 * @param eventTimeMillis the record's event time, or null if it has none
 * @param fields the record's fields in order; values are Long, Double, String, Boolean, null, or
 *     nested maps and lists
 */
public record SampledRecord(long seq, long emittedAtMillis, Long eventTimeMillis, Map<String, Object> fields) {}
