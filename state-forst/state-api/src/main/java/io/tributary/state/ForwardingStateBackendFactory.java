package io.tributary.state;

import java.util.List;

/**
 * A state backend factory that hands every call to another one ({@link #delegate()}, asked at each
 * call, so it may be opened lazily or swapped): the base of decorators that override only the calls
 * they change. {@link #name()} is the delegate's unless overridden.
 */
public abstract class ForwardingStateBackendFactory implements StateBackendFactory {
  /** The factory calls go to now. */
  protected abstract StateBackendFactory delegate();

  @Override
  public String name() {
    return delegate().name();
  }

  @Override
  public KeyedStateBackend create(String jobName, String operatorId, KeyGroupRange range, int maxParallelism) {
    return delegate().create(jobName, operatorId, range, maxParallelism);
  }

  @Override
  public KeyedStateBackend restore(String jobName, String operatorId, KeyGroupRange range, int maxParallelism,
      List<StateSnapshot> snapshots) {
    return delegate().restore(jobName, operatorId, range, maxParallelism, snapshots);
  }

  @Override
  public StateSnapshot copyTo(String jobName, String operatorId, StateSnapshot snapshot, String directory) {
    return delegate().copyTo(jobName, operatorId, snapshot, directory);
  }

  @Override
  public void retain(String jobName, String operatorId, StateSnapshot snapshot) {
    delegate().retain(jobName, operatorId, snapshot);
  }

  @Override
  public List<String> release(String jobName, String operatorId, StateSnapshot snapshot) {
    return delegate().release(jobName, operatorId, snapshot);
  }
}
