package io.tributary.protocol;

import java.util.List;

/**
 * What one sink does once per attempt, before any of its writers opens (contract C10): commit the
 * pre-commits of the checkpoint restored from, and abort or delete what earlier attempts left
 * pending.
 *
 * @param sinkId the sink operator's id
 * @param committables the restored checkpoint's pre-commits of this sink (empty without restore)
 * @param previousMaxParallelism the largest parallelism earlier attempts may have run the sink at
 */
public record SinkRecovery(String sinkId, List<String> committables, int previousMaxParallelism) {
  public SinkRecovery {
    committables = List.copyOf(committables);
  }
}
