package io.tributary.control;

import io.tributary.stream.Record;
import io.tributary.worker.task.OutputTap;
import java.time.Instant;
import java.util.Collections;
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
    Map<String, Object> fields) {

  static OutputRecord of(OutputTap tap, OutputTap.Entry e) {
    Record r = e.record();
    return new OutputRecord(tap.operatorId(), tap.subtask(), Instant.ofEpochMilli(e.emittedAtMillis()),
        r.timestamp() == Record.NO_TIMESTAMP ? null : Instant.ofEpochMilli(r.timestamp()),
        Collections.unmodifiableMap(r.asMap()));
  }
}
