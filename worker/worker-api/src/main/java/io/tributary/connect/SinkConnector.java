package io.tributary.connect;

/** A configured sink. */
public interface SinkConnector {
  /** A writer for subtask {@code subtaskIndex} of {@code parallelism}. */
  SinkWriter open(int subtaskIndex, int parallelism);

  /**
   * A writer for subtask {@code subtaskIndex} of {@code parallelism} in restart attempt
   * {@code attempt} (0 for a first start, growing by one at every restore), so writers of
   * different attempts never share names or transactional ids.
   */
  default SinkWriter open(int subtaskIndex, int parallelism, long attempt) {
    return open(subtaskIndex, parallelism);
  }

  /**
   * The checkpoint that covers these pre-commits completed: make them visible (second phase of
   * contract C10). Must be idempotent: after a failure it is called again with the committables of
   * the restored checkpoint, some of which may already be committed.
   */
  default void commit(java.util.List<String> committables) {}

  /**
   * On restore, before any writer opens: commit {@code committables} (those of the restored
   * checkpoint) and abort or delete everything earlier attempts left pending that is not among
   * them (in-progress files, lingering transactions), for any earlier parallelism up to
   * {@code maxPreviousParallelism}.
   */
  default void recover(java.util.List<String> committables, int maxPreviousParallelism, long attempt) {
    commit(committables);
  }

  /**
   * The job is over (its last checkpoint committed, or it was cancelled): release what commit and
   * recover kept open (admin clients, parked producers). Writers are closed before.
   */
  default void close() {}
}
