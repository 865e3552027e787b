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

  /** Opens a reader of {@code split}. */
  SplitReader open(SourceSplit split);

  /** Whether every split ends by itself (file, bounded generators). */
  boolean bounded();
}
