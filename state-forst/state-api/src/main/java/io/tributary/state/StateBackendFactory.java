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
}
