package io.tributary.scheduler.autoscale;

import java.time.Duration;
import java.util.Objects;

/**
 * How the {@link Autoscaler} of one job decides. The defaults scale a stage to run at about 70% busy,
 * react to a load step within a few minutes, and give back parallelism only after the load has been
 * lower for five minutes, so that a job is not restarted for every dip.
 *
 * @param enabled whether decisions rescale; when false the autoscaler still recommends (for a gauge)
 * @param targetUtilization the busy fraction a stage is sized for, in (0, 1]: head room below 1 is
 *     what absorbs noise and short peaks without backpressure
 * @param utilizationBand half the width of the band around {@code targetUtilization} inside which a
 *     stage is left alone while nothing in the job is backpressured or lagging, in [0, target): this
 *     is what keeps a noisy but steady job from flapping
 * @param metricsWindow how long samples are averaged before a decision: at least this much of them
 *     must have been collected since the job last settled
 * @param stabilization how long after a rescale samples are ignored: a restarted job catches up and
 *     warms caches, and its rates then say nothing about its capacity
 * @param scaleDownDelay how long a scale-down must have been wanted, without a break, before it
 *     happens; it then goes to the largest parallelism recommended in that time, so a short lull
 *     does not cut a stage below what the next peak needs
 * @param catchUpDuration the time in which a source's backlog should be drained: the backlog divided
 *     by it is added to the source's target rate
 * @param maxDecisionsPerHour rescales of the job allowed in any hour, at least 1: every rescale
 *     restarts the job, so a bound on them bounds the harm of a wrong model
 * @param ineffectiveScaleUpThreshold the fraction, in [0, 1), of the expected rise of a stage's true
 *     rate below which a scale-up counts as ineffective (the stage is limited by something that
 *     parallelism does not buy, such as an external system); such a stage is not scaled up again
 */
public record AutoscalerSettings(boolean enabled, double targetUtilization, double utilizationBand,
    Duration metricsWindow, Duration stabilization, Duration scaleDownDelay, Duration catchUpDuration,
    int maxDecisionsPerHour, double ineffectiveScaleUpThreshold) {
  /** Off, and sized for 70% ± 10% busy. */
  public static final AutoscalerSettings DEFAULTS = new AutoscalerSettings(false, 0.7, 0.1, Duration.ofMinutes(2),
      Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(5), 6, 0.1);

  /** @throws IllegalArgumentException naming the first setting out of range, and its range */
  public AutoscalerSettings {
    if (!(targetUtilization > 0 && targetUtilization <= 1)) {
      throw invalid("targetUtilization", "in (0, 1]", targetUtilization);
    }
    if (!(utilizationBand >= 0 && utilizationBand < targetUtilization)) {
      throw invalid("utilizationBand", "in [0, targetUtilization " + targetUtilization + ")", utilizationBand);
    }
    positive("metricsWindow", metricsWindow);
    notNegative("stabilization", stabilization);
    notNegative("scaleDownDelay", scaleDownDelay);
    positive("catchUpDuration", catchUpDuration);
    if (maxDecisionsPerHour < 1) {
      throw invalid("maxDecisionsPerHour", "at least 1", maxDecisionsPerHour);
    }
    if (!(ineffectiveScaleUpThreshold >= 0 && ineffectiveScaleUpThreshold < 1)) {
      throw invalid("ineffectiveScaleUpThreshold", "in [0, 1)", ineffectiveScaleUpThreshold);
    }
  }

  public AutoscalerSettings withEnabled(boolean on) {
    return new AutoscalerSettings(on, targetUtilization, utilizationBand, metricsWindow, stabilization,
        scaleDownDelay, catchUpDuration, maxDecisionsPerHour, ineffectiveScaleUpThreshold);
  }

  public AutoscalerSettings withUtilization(double target, double band) {
    return new AutoscalerSettings(enabled, target, band, metricsWindow, stabilization, scaleDownDelay,
        catchUpDuration, maxDecisionsPerHour, ineffectiveScaleUpThreshold);
  }

  public AutoscalerSettings withMetricsWindow(Duration d) {
    return new AutoscalerSettings(enabled, targetUtilization, utilizationBand, d, stabilization, scaleDownDelay,
        catchUpDuration, maxDecisionsPerHour, ineffectiveScaleUpThreshold);
  }

  public AutoscalerSettings withStabilization(Duration d) {
    return new AutoscalerSettings(enabled, targetUtilization, utilizationBand, metricsWindow, d, scaleDownDelay,
        catchUpDuration, maxDecisionsPerHour, ineffectiveScaleUpThreshold);
  }

  public AutoscalerSettings withScaleDownDelay(Duration d) {
    return new AutoscalerSettings(enabled, targetUtilization, utilizationBand, metricsWindow, stabilization, d,
        catchUpDuration, maxDecisionsPerHour, ineffectiveScaleUpThreshold);
  }

  public AutoscalerSettings withCatchUpDuration(Duration d) {
    return new AutoscalerSettings(enabled, targetUtilization, utilizationBand, metricsWindow, stabilization,
        scaleDownDelay, d, maxDecisionsPerHour, ineffectiveScaleUpThreshold);
  }

  public AutoscalerSettings withMaxDecisionsPerHour(int n) {
    return new AutoscalerSettings(enabled, targetUtilization, utilizationBand, metricsWindow, stabilization,
        scaleDownDelay, catchUpDuration, n, ineffectiveScaleUpThreshold);
  }

  public AutoscalerSettings withIneffectiveScaleUpThreshold(double t) {
    return new AutoscalerSettings(enabled, targetUtilization, utilizationBand, metricsWindow, stabilization,
        scaleDownDelay, catchUpDuration, maxDecisionsPerHour, t);
  }

  private static void positive(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw invalid(name, "longer than zero", d);
    }
  }

  private static void notNegative(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw invalid(name, "zero or longer", d);
    }
  }

  private static IllegalArgumentException invalid(String name, String range, Object was) {
    return new IllegalArgumentException("autoscaler setting " + name + " must be " + range + ", was " + was);
  }
}
