package io.tributary.connect;

import io.tributary.stream.Record;

/** Writes one sink subtask's records, on the task thread. */
public interface SinkWriter extends AutoCloseable {
  void write(Record record);

  /** Makes everything written so far durable and visible (end of a bounded job). */
  void commit();

  /**
   * Checkpoint {@code checkpointId}'s barrier reached this writer (first phase of contract C10):
   * makes everything written since the last pre-commit durable but not yet visible, and returns
   * what {@link SinkConnector#commit} needs to make it visible, as a small string for checkpoint
   * metadata; null when there is nothing to commit. Writing continues after it. The default
   * (at-least-once sinks) commits at once.
   */
  default String preCommit(long checkpointId) {
    commit();
    return null;
  }

  /** Releases resources without committing what was not committed (also after failures). */
  @Override
  void close();
}
