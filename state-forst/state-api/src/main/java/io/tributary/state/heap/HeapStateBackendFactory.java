package io.tributary.state.heap;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateBackendFactory;

/** Creates {@link HeapKeyedStateBackend}s; configured as {@code heap}. */
public final class HeapStateBackendFactory implements StateBackendFactory {
  public static final String NAME = "heap";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public KeyedStateBackend create(
      String jobName, String operatorId, KeyGroupRange range, int maxParallelism) {
    return new HeapKeyedStateBackend(range, maxParallelism);
  }
}
