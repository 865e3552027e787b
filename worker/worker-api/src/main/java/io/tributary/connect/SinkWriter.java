package io.tributary.connect;

import io.tributary.stream.Record;

/** Writes one sink subtask's records, on the task thread. */
public interface SinkWriter extends AutoCloseable {
  void write(Record record);

  /** Makes everything written so far durable and visible (end of a bounded job). */
  void commit();

  /** Releases resources without committing what was not committed (also after failures). */
  @Override
  void close();
}
