package io.tributary.connect;

/**
 * Reads one split on the source task's thread. Must not block for more than a few milliseconds per
 * call: the task thread also handles control messages.
 */
public interface SplitReader extends AutoCloseable {
  /** Returned by {@link #read} when the split has ended (bounded sources). */
  int END = -1;

  /**
   * Reads at most {@code max} records into {@code out}.
   *
   * @return how many records (including malformed ones) were read; 0 when none is available now;
   *     {@link #END} when the split is exhausted and nothing more will come
   */
  int read(SplitOutput out, int max);

  /**
   * Where to resume after everything {@link #read} returned so far, as a small string (a file
   * offset, a Kafka offset, a generator index) that goes into checkpoint metadata; null when this
   * reader cannot resume. Called on the task thread between reads, when a checkpoint is taken.
   */
  default String position() {
    return null;
  }

  @Override
  void close();
}
