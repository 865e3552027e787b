package io.tributary.connect;

/** A configured sink. */
public interface SinkConnector {
  /** A writer for subtask {@code subtaskIndex} of {@code parallelism}. */
  SinkWriter open(int subtaskIndex, int parallelism);
}
