package io.tributary.scheduler.autoscale;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What one stage of a running job did around one instant, averaged over its subtasks: the input of
 * one {@link Autoscaler#evaluate} step. Rates are records per second of the whole stage.
 *
 * @param stageId the stage's id in the plan
 * @param name shown in explanations
 * @param parallelism the subtasks it runs now
 * @param min the lowest parallelism the autoscaler may choose, at least 1
 * @param max the highest parallelism the autoscaler may choose
 * @param keyGroups the job's maxParallelism, the number of key groups: the parallelism never exceeds
 *     it, and one that divides it gives every subtask the same number of key groups
 * @param busy the fraction of wall time its subtasks spent processing, 0..1 (not idle, not
 *     backpressured)
 * @param backpressured the fraction of wall time its subtasks waited for downstream, 0..1
 * @param recordsInPerSecond records it took in: for a source, records read from outside
 * @param recordsOutPerSecond records it emitted
 * @param lagGrowthRate for a source, how fast the records waiting outside grow (negative while it
 *     catches up), for example a Kafka topic's end offsets minus the source's positions; 0 otherwise
 * @param backlog for a source, the records waiting outside; 0 otherwise
 * @param configuredRate for a throttled source (a generator set to a rate), that rate: the source
 *     will never need more; empty otherwise
 * @param maxReason why {@code max} is below the job's bound, for explanations (for example "the
 *     topic's 3 partitions"); null when it is the job's bound
 */
public record StageSample(int stageId, String name, int parallelism, int min, int max, int keyGroups, double busy,
    double backpressured, double recordsInPerSecond, double recordsOutPerSecond, double lagGrowthRate,
    double backlog, OptionalDouble configuredRate, String maxReason) {
  /** A stage bounded by the job's bounds alone. */
  public StageSample(int stageId, String name, int parallelism, int min, int max, int keyGroups, double busy,
      double backpressured, double recordsInPerSecond, double recordsOutPerSecond, double lagGrowthRate,
      double backlog, OptionalDouble configuredRate) {
    this(stageId, name, parallelism, min, max, keyGroups, busy, backpressured, recordsInPerSecond,
        recordsOutPerSecond, lagGrowthRate, backlog, configuredRate, null);
  }

  /** @throws IllegalArgumentException naming the value out of range */
  public StageSample {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(configuredRate, "configuredRate");
    if (parallelism < 1 || min < 1 || max < min || keyGroups < 1) {
      throw new IllegalArgumentException("stage " + name + ": parallelism " + parallelism + ", min " + min
          + ", max " + max + " and keyGroups " + keyGroups + " must be at least 1, and max at least min");
    }
    fraction(name, "busy", busy);
    fraction(name, "backpressured", backpressured);
    rate(name, "recordsInPerSecond", recordsInPerSecond);
    rate(name, "recordsOutPerSecond", recordsOutPerSecond);
    rate(name, "backlog", backlog);
    if (!Double.isFinite(lagGrowthRate)) {
      throw new IllegalArgumentException("stage " + name + ": lagGrowthRate must be finite, was " + lagGrowthRate);
    }
    if (configuredRate.isPresent() && !(configuredRate.getAsDouble() > 0)) {
      throw new IllegalArgumentException("stage " + name + ": configuredRate must be above 0, was "
          + configuredRate.getAsDouble());
    }
  }

  /** A stage fed by other stages: no lag, backlog or configured rate. */
  public static StageSample inner(int stageId, String name, int parallelism, int min, int max, int keyGroups,
      double busy, double backpressured, double recordsInPerSecond, double recordsOutPerSecond) {
    return new StageSample(stageId, name, parallelism, min, max, keyGroups, busy, backpressured,
        recordsInPerSecond, recordsOutPerSecond, 0, 0, OptionalDouble.empty());
  }

  private static void fraction(String stage, String what, double v) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException("stage " + stage + ": " + what + " must be in 0..1, was " + v);
    }
  }

  private static void rate(String stage, String what, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException("stage " + stage + ": " + what + " must be finite and not negative, was "
          + v);
    }
  }
}
