package io.tributary.state;

/**
 * Creates keyed state backends; one factory per backend kind ({@code heap}, {@code forst}), chosen
 * by the job spec's {@code state.backend} or the process configuration.
 */
public interface StateBackendFactory {
  /** The name used in configuration, for example {@code heap}. */
  String name();

  /**
   * A backend for one operator instance.
   *
   * @param jobName the job, for naming durable files
   * @param operatorId the stateful operator's id in the plan
   * @param range the key groups the instance owns
   * @param maxParallelism the job's number of key groups
   */
  KeyedStateBackend create(String jobName, String operatorId, KeyGroupRange range, int maxParallelism);

  /**
   * A backend for one operator instance that starts from {@code snapshots} (contracts C7, C8): the
   * key groups of {@code range} found in them, whatever range each snapshot covered. Data may be
   * fetched lazily, per key group, on first access.
   *
   * @throws UnsupportedOperationException if this backend cannot restore
   */
  default KeyedStateBackend restore(String jobName, String operatorId, KeyGroupRange range, int maxParallelism,
      java.util.List<StateSnapshot> snapshots) {
    throw new UnsupportedOperationException(name() + " state cannot be restored");
  }
}
