package io.tributary.protocol;

import java.util.List;

/**
 * The splits a source has now.
 *
 * @param ids split ids in a stable order (split {@code i} goes to subtask {@code i mod p})
 * @param followParallelism whether the splits depend on the parallelism (generators slice their
 *     sequence into one split per subtask): restored at another parallelism, such a source resumes
 *     exactly the checkpoint's splits; other sources add the splits that appeared since
 */
public record SourceSplits(List<String> ids, boolean followParallelism) {
  public SourceSplits {
    ids = List.copyOf(ids);
  }
}
