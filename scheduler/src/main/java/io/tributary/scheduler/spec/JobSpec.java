package io.tributary.scheduler.spec;

import io.tributary.state.KeyGroups;
import java.util.List;
import java.util.Map;

/**
 * A streaming job as the user declares it, read by {@link SpecParser} and checked by
 * {@link SpecValidator}. Maps keep document order. A spec read from a document with errors may
 * have null parts; one that passed validation has a name, sources and sinks.
 *
 * @param maxParallelism the number of key groups; null: {@link #effectiveMaxParallelism()}
 * @param checkpoints null: no periodic checkpoints
 * @param idleAfterMillis how long the job's sources may read nothing before the job scales to zero
 *     ({@link #effectiveIdleAfter()}); null: the default; 0: never
 */
public record JobSpec(
    String name, ParallelismSpec parallelism, Integer maxParallelism, CheckpointSpec checkpoints,
    StateSpec state, Map<String, SourceSpec> sources, List<OperatorSpec> operators,
    Map<String, SinkSpec> sinks,
    // absent from the fingerprint when the spec has no autoscaler block: specs written before it
    // keep their fingerprints
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    AutoscalerSpec autoscaler,
    // absent from the fingerprint when the spec does not say: specs written before it keep theirs
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    Long idleAfterMillis) {
  /**
   * How long a job whose every source can be watched for new input (Kafka) may read nothing before
   * it scales to zero, when its spec does not say.
   */
  public static final java.time.Duration DEFAULT_IDLE_AFTER = java.time.Duration.ofMinutes(10);

  /** Source types whose new input the control plane can see while the job holds no worker. */
  public static final java.util.Set<String> WATCHABLE_SOURCES = java.util.Set.of("kafka");

  public JobSpec(String name, ParallelismSpec parallelism, Integer maxParallelism, CheckpointSpec checkpoints,
      StateSpec state, Map<String, SourceSpec> sources, List<OperatorSpec> operators, Map<String, SinkSpec> sinks) {
    this(name, parallelism, maxParallelism, checkpoints, state, sources, operators, sinks, null, null);
  }

  /** This spec with other sources and sinks (everything else kept). */
  public JobSpec withConnectors(Map<String, SourceSpec> newSources, Map<String, SinkSpec> newSinks) {
    return new JobSpec(name, parallelism, maxParallelism, checkpoints, state, newSources, operators, newSinks,
        autoscaler, idleAfterMillis);
  }

  /** This spec with another parallelism (everything else kept). */
  public JobSpec withParallelism(ParallelismSpec p) {
    return new JobSpec(name, p, maxParallelism, checkpoints, state, sources, operators, sinks, autoscaler,
        idleAfterMillis);
  }

  /**
   * How long the job's sources may read nothing before it scales to zero: a checkpoint, its run
   * ends, it is IDLE and holds no worker until its sources have new input. The spec's
   * {@code idleAfter}; when it says nothing, {@link #DEFAULT_IDLE_AFTER} for a job whose every
   * source is {@link #WATCHABLE_SOURCES watchable} and that takes checkpoints. Null: never.
   */
  public java.time.Duration effectiveIdleAfter() {
    if (idleAfterMillis != null) {
      return idleAfterMillis == 0 ? null : java.time.Duration.ofMillis(idleAfterMillis);
    }
    boolean watchable = !sources.isEmpty() && sources.values().stream()
        .allMatch(s -> s != null && WATCHABLE_SOURCES.contains(s.type()));
    return watchable && checkpoints != null ? DEFAULT_IDLE_AFTER : null;
  }

  /** The autoscaler's settings: those of the spec's block, else the defaults (not enabled). */
  public io.tributary.scheduler.autoscale.AutoscalerSettings autoscalerSettings() {
    return autoscaler == null ? io.tributary.scheduler.autoscale.AutoscalerSettings.DEFAULTS : autoscaler.settings();
  }

  public JobSpec {
    parallelism = parallelism == null ? ParallelismSpec.fixed(1) : parallelism;
    state = state == null ? StateSpec.DEFAULT : state;
    sources = Copies.map(sources == null ? Map.of() : sources);
    operators = Copies.list(operators == null ? List.of() : operators);
    sinks = Copies.map(sinks == null ? Map.of() : sinks);
  }

  /**
   * The number of key groups: {@code maxParallelism} if written, else
   * {@link KeyGroups#defaultMaxParallelism} of the parallelism's upper bound.
   */
  public int effectiveMaxParallelism() {
    return maxParallelism != null
        ? maxParallelism
        : KeyGroups.defaultMaxParallelism(Math.min(Math.max(1, parallelism.max()), KeyGroups.UPPER_BOUND_MAX_PARALLELISM));
  }
}
