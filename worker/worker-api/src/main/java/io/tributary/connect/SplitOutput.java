package io.tributary.connect;

import io.tributary.stream.Record;

/** Receives what a {@link SplitReader} reads. */
public interface SplitOutput {
  /**
   * A well-formed record. Its timestamp may be {@code Record.NO_TIMESTAMP}: the source task takes
   * event time from the field the spec names.
   */
  void record(Record record);

  /** An input that could not be decoded: counted, and sent to the dead-letter output if declared. */
  void malformed(String raw, String reason);
}
