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
 */
public record JobSpec(
    String name, ParallelismSpec parallelism, Integer maxParallelism, CheckpointSpec checkpoints,
    StateSpec state, Map<String, SourceSpec> sources, List<OperatorSpec> operators,
    Map<String, SinkSpec> sinks,
    // absent from the fingerprint when the spec has no autoscaler block: specs written before it
    // keep their fingerprints
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    AutoscalerSpec autoscaler) {
  public JobSpec(String name, ParallelismSpec parallelism, Integer maxParallelism, CheckpointSpec checkpoints,
      StateSpec state, Map<String, SourceSpec> sources, List<OperatorSpec> operators, Map<String, SinkSpec> sinks) {
    this(name, parallelism, maxParallelism, checkpoints, state, sources, operators, sinks, null);
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
