package io.tributary.scheduler.autoscale;

import java.util.Objects;

/**
 * What the {@link Autoscaler} decided for one stage at one evaluation.
 *
 * @param stageId the stage's id in the plan
 * @param stage its name
 * @param from the parallelism it runs at
 * @param to the parallelism it should run at: {@code from} unless this decision rescales it
 * @param recommended the parallelism the model asks for now, before the stabilization, the
 *     scale-down delay, the decision cap and the ineffective-scale-up rule hold it back, and when the
 *     autoscaler is disabled; {@code from} while there are not enough metrics, or within the band
 * @param explanation one line with the numbers behind it, and why nothing changes when nothing does
 */
public record ScalingDecision(int stageId, String stage, int from, int to, int recommended, String explanation) {
  public ScalingDecision {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(explanation, "explanation");
  }

  /** Whether this decision rescales the stage. */
  public boolean rescales() {
    return from != to;
  }

  @Override
  public String toString() {
    return explanation;
  }
}
