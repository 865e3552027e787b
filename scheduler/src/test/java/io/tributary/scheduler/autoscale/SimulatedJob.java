package io.tributary.scheduler.autoscale;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Random;

/**
 * A chain of stages, the first one reading from a topic that is written at {@link #load} records
 * per second, stepped in simulated time. A stage processes up to its capacity (per subtask times
 * parallelism, or a fixed total for one limited by something outside); the chain moves at the pace
 * of its slowest stage, the stages before that one are backpressured, and what the source cannot
 * read piles up in the topic. A rescale takes effect at once. Measured rates and fractions carry
 * seeded noise, proportional to their values.
 */
final class SimulatedJob {
  static final Duration STEP = Duration.ofSeconds(10);
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  /** One stage; {@code fixedCapacity} is NaN when the capacity grows with the parallelism. */
  static final class Stage {
    final String name;
    final int min;
    final int max;
    final double perSubtask;
    final double fixedCapacity;
    final double ratio;
    int parallelism;

    Stage(String name, int parallelism, int min, int max, double perSubtask, double fixedCapacity, double ratio) {
      this.name = name;
      this.parallelism = parallelism;
      this.min = min;
      this.max = max;
      this.perSubtask = perSubtask;
      this.fixedCapacity = fixedCapacity;
      this.ratio = ratio;
    }

    double capacity() {
      return Double.isNaN(fixedCapacity) ? parallelism * perSubtask : fixedCapacity;
    }
  }

  private final List<Stage> stages = new ArrayList<>();
  private final Random random;
  private final double noise;
  private final int keyGroups;
  private Instant now = START;
  private double load;
  private double backlog;

  SimulatedJob(long seed, double noise, int keyGroups) {
    this.random = new Random(seed);
    this.noise = noise;
    this.keyGroups = keyGroups;
  }

  /** Adds a stage whose capacity is {@code perSubtask} records/s per subtask, emitting {@code ratio} per input. */
  SimulatedJob stage(String name, int parallelism, int min, int max, double perSubtask, double ratio) {
    stages.add(new Stage(name, parallelism, min, max, perSubtask, Double.NaN, ratio));
    return this;
  }

  /** Adds a stage that processes at most {@code total} records/s whatever its parallelism. */
  SimulatedJob bottleneck(String name, int parallelism, int min, int max, double total, double ratio) {
    stages.add(new Stage(name, parallelism, min, max, Double.NaN, total, ratio));
    return this;
  }

  SimulatedJob load(double recordsPerSecond) {
    this.load = recordsPerSecond;
    return this;
  }

  Instant now() {
    return now;
  }

  int parallelism(String name) {
    return find(name).parallelism;
  }

  /** Whether {@code name} can take the current load without holding anything back. */
  boolean keepsUp(String name) {
    double in = load;
    for (Stage s : stages) {
      if (s.name.equals(name)) {
        return s.capacity() >= in;
      }
      in *= s.ratio;
    }
    throw new IllegalArgumentException(name);
  }

  /** Moves {@link #STEP} on and returns what the job did in it. */
  JobSample step() {
    double dt = STEP.toSeconds();
    double read = load + backlog / dt;
    double factor = 1;
    int bottleneck = -1;
    for (int i = 0; i < stages.size(); i++) {
      double limit = stages.get(i).capacity() / factor;
      if (limit < read) {
        read = limit;
        bottleneck = i;
      }
      factor *= stages.get(i).ratio;
    }
    double before = backlog;
    backlog = Math.max(0, backlog + (load - read) * dt);
    now = now.plus(STEP);
    List<StageSample> samples = new ArrayList<>();
    List<JobSample.Edge> edges = new ArrayList<>();
    double in = read;
    for (int i = 0; i < stages.size(); i++) {
      Stage s = stages.get(i);
      double busy = in / s.capacity();
      double backpressured = i < bottleneck ? 1 - busy : 0;
      double out = in * s.ratio;
      if (i == 0) {
        samples.add(new StageSample(i, s.name, s.parallelism, s.min, s.max, keyGroups, fraction(busy),
            fraction(backpressured), noisy(in), noisy(out), (backlog - before) / dt, backlog,
            OptionalDouble.empty()));
      } else {
        samples.add(StageSample.inner(i, s.name, s.parallelism, s.min, s.max, keyGroups, fraction(busy),
            fraction(backpressured), noisy(in), noisy(out)));
        edges.add(new JobSample.Edge(i - 1, i));
      }
      in = out;
    }
    return new JobSample(samples, edges);
  }

  /** Rescales the stages the decision rescales. */
  void apply(Autoscaler.Decision decision) {
    for (ScalingDecision d : decision.stages()) {
      stages.get(d.stageId()).parallelism = d.to();
    }
  }

  private Stage find(String name) {
    return stages.stream().filter(s -> s.name.equals(name)).findFirst().orElseThrow();
  }

  private double noisy(double v) {
    return Math.max(0, v * (1 + noise * random.nextGaussian()));
  }

  private double fraction(double v) {
    return Math.min(1, noisy(v));
  }
}
