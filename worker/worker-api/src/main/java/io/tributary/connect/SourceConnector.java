package io.tributary.connect;

import java.util.List;

/**
 * A configured source. Splits are assigned to source subtasks round robin: split {@code i} goes to
 * subtask {@code i mod parallelism}.
 */
public interface SourceConnector {
  /**
   * The splits of this source, in a stable order. Sources that can split freely (generators) return
   * at least {@code parallelism} splits; files and Kafka partitions return what exists.
   */
  List<? extends SourceSplit> splits(int parallelism);

  /** Opens a reader of {@code split} from its start. */
  SplitReader open(SourceSplit split);

  /**
   * Opens a reader of {@code split} that resumes at {@code position}, a value its reader's
   * {@link SplitReader#position()} returned; null means from the start.
   *
   * @throws UnsupportedOperationException if this source cannot resume
   */
  default SplitReader open(SourceSplit split, String position) {
    if (position == null) {
      return open(split);
    }
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot resume from a position");
  }

  /**
   * Whether {@link #splits} depends on the parallelism (generators slice their sequence into one
   * split per subtask). On a restore at another parallelism such a source resumes exactly the
   * splits of the checkpoint, found with {@link #splitOf}; other sources add splits that appeared
   * since (new files, new partitions).
   */
  default boolean splitsFollowParallelism() {
    return false;
  }

  /** The split with id {@code id}, as a checkpoint recorded it; null if this source cannot make it. */
  default SourceSplit splitOf(String id) {
    return null;
  }

  /** Whether every split ends by itself (file, bounded generators). */
  boolean bounded();

  /**
   * What waits beyond {@code positions} (split id to a position its reader returned; a split
   * missing from it counts from where a new reader would start), and how much was ever written,
   * asked of the external system: what lets the control plane see new input while the job holds no
   * worker. Empty when this source cannot tell.
   *
   * @throws ConnectorException if the external system cannot be reached or asked
   */
  default java.util.Optional<SourceBacklog> backlog(java.util.Map<String, String> positions) {
    return java.util.Optional.empty();
  }
}
