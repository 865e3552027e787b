package io.tributary.scheduler.spec;

import io.tributary.scheduler.autoscale.AutoscalerSettings;
import java.time.Duration;

/**
 * The {@code autoscaler} block of a spec, with its defaults filled in: whether the control plane
 * moves the job's parallelism within {@code parallelism: {min, max}} itself, and how (see
 * {@link AutoscalerSettings}). A spec that has the block is autoscaled unless it says
 * {@code enabled: false}.
 */
public record AutoscalerSpec(boolean enabled, double targetUtilization, double utilizationBand,
    long metricsWindowMillis, long stabilizationMillis, long scaleDownDelayMillis, long catchUpDurationMillis,
    int maxDecisionsPerHour) {
  /** The model's settings. */
  public AutoscalerSettings settings() {
    AutoscalerSettings d = AutoscalerSettings.DEFAULTS;
    return new AutoscalerSettings(enabled, targetUtilization, utilizationBand, Duration.ofMillis(metricsWindowMillis),
        Duration.ofMillis(stabilizationMillis), Duration.ofMillis(scaleDownDelayMillis),
        Duration.ofMillis(catchUpDurationMillis), maxDecisionsPerHour, d.ineffectiveScaleUpThreshold());
  }
}
