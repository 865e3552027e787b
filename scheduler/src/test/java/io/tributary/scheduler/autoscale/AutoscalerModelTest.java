package io.tributary.scheduler.autoscale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sizing model on fixed samples: targets, bounds and the preference for divisors of the key groups. */
class AutoscalerModelTest {
  /** Decides on the first full window, and scales down at once. */
  private static final AutoscalerSettings EAGER = AutoscalerSettings.DEFAULTS.withEnabled(true)
      .withStabilization(Duration.ZERO).withScaleDownDelay(Duration.ZERO);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @ParameterizedTest(name = "p {0} in [{1}, {2}], key groups {3}, busy {4}, in {5}/s, lag {6}/s → {7}")
  @CsvSource({
      // a huge target stops at max, then at the key groups
      "4, 1, 10, 128, 1.0, 40000, 400000, 10",
      "4, 1, 200, 64, 1.0, 40000, 400000, 64",
      // a tiny one stops at min, raised to the next divisor of 128
      "8, 3, 32, 128, 0.05, 4000, 0, 4",
      // ceil(2 * 32k / (20k * 0.7)) = 5: raised to 8 when max allows, else 5; to 6 with 12 key groups
      "2, 1, 16, 128, 1.0, 20000, 12000, 8",
      "2, 1, 6, 128, 1.0, 20000, 12000, 5",
      "2, 1, 16, 12, 1.0, 20000, 12000, 6"})
  void sizesWithinTheBoundsPreferringDivisors(int p, int min, int max, int keyGroups, double busy, double in,
      double lag, int expected) {
    StageSample work = StageSample.inner(1, "work", p, min, max, keyGroups, busy, 0, in, in);

    ScalingDecision d = decide(source(in, lag, 0), work);

    assertThat(d.to()).isEqualTo(expected).isEqualTo(d.recommended());
    assertThat(d.explanation()).endsWith("→ " + p + " → " + expected);
  }

  @Test
  void fitStaysWithinTheBoundsAndTakesTheSmallestDivisorAtOrAboveTheWish() {
    Random random = new Random(11);
    for (int i = 0; i < 10_000; i++) {
      int keyGroups = 1 + random.nextInt(256);
      int min = 1 + random.nextInt(keyGroups);
      int max = min + random.nextInt(300);
      int wanted = random.nextInt(400);
      StageSample s = StageSample.inner(0, "s", 1, min, max, keyGroups, 0.5, 0, 1, 1);

      int p = Autoscaler.fit(wanted, s);

      int upper = Math.min(max, keyGroups);
      int clamped = Math.max(min, Math.min(wanted, upper));
      assertThat(p).as("wanted %d in [%d, %d], %d key groups", wanted, min, max, keyGroups)
          .isBetween(min, upper).isGreaterThanOrEqualTo(clamped);
      if (p != clamped) {
        assertThat(keyGroups % p).isZero();
        for (int d = clamped; d < p; d++) {
          assertThat(keyGroups % d).as("%d divides %d", d, keyGroups).isNotZero();
        }
      }
    }
  }

  @Test
  void aStageFedByTwoInputsTargetsTheSumOfWhatEachEmitsPerRecord() {
    StageSample a = source(10_000, 0, 0);
    StageSample b = new StageSample(1, "b", 1, 1, 8, 128, 0.1, 0, 20_000, 40_000, 0, 0, OptionalDouble.empty());
    StageSample join = StageSample.inner(2, "join", 2, 1, 8, 128, 0.5, 0, 50_000, 50_000);
    JobSample sample = new JobSample(List.of(a, b, join),
        List.of(new JobSample.Edge(0, 2), new JobSample.Edge(1, 2)));

    ScalingDecision d = decideOn(sample).stage(2);

    assertThat(d.explanation()).isEqualTo("join: busy 0.50, true rate 100k/s, target 50k/s → 2 → 2: as now");
  }

  @Test
  void aSourceTargetsItsInputPlusLagGrowthPlusItsBacklogOverTheCatchUpTime() {
    // 10k/s read, 2k/s more arriving, 600k waiting: 600k / 5 min = 2k/s
    ScalingDecision d = decideOn(new JobSample(List.of(source(10_000, 2_000, 600_000)), List.of())).stage(0);

    assertThat(d.explanation()).startsWith("src: busy 0.50, true rate 20k/s, target 14k/s → 1 → 1");
  }

  @Test
  void aThrottledSourceTargetsItsConfiguredRate() {
    StageSample gen = new StageSample(0, "gen", 2, 1, 8, 128, 1.0, 0, 20_000, 20_000, 0, 0, OptionalDouble.of(35_000));
    // ceil(2 * 35k / (20k * 0.7)) = 5, raised to 8 that divides the 128 key groups

    ScalingDecision d = decideOn(new JobSample(List.of(gen), List.of())).stage(0);

    assertThat(d.explanation()).isEqualTo("gen: busy 1.00, true rate 20k/s, target 35k/s → 2 → 8");
  }

  @Test
  void withinTheBandAStageStaysUnlessTheJobLags() {
    StageSample work = StageSample.inner(1, "work", 4, 1, 32, 128, 0.75, 0, 30_000, 30_000);

    assertThat(decide(source(30_000, 0, 0), work).explanation())
        .isEqualTo("work: busy 0.75, true rate 40k/s, target 30k/s: within band 0.60..0.80; stays at 4");
    assertThat(decide(source(30_000, 6_000, 0), work).explanation())
        .isEqualTo("work: busy 0.75, true rate 40k/s, target 36k/s → 4 → 8");
  }

  @Test
  void anAlmostIdleStageWantsItsMinimumUnlessTheJobLags() {
    StageSample work = StageSample.inner(1, "work", 4, 1, 32, 128, 0.004, 0, 100, 100);

    ScalingDecision quiet = decide(source(100, 0, 0), work);
    assertThat(quiet.explanation()).isEqualTo("work: busy 0.00, almost idle → 4 → 1");
    assertThat(quiet.to()).isEqualTo(1);
    assertThat(decide(source(100, 6_000, 0), work).explanation()).as("the source lags: the stage is not sized")
        .isEqualTo("work: busy 0.00, no rate to size by; stays at 4");
  }

  @Test
  void nothingIsDecidedBeforeAFullMetricsWindow() {
    Autoscaler scaler = new Autoscaler(EAGER);
    JobSample sample = new JobSample(List.of(new StageSample(0, "src", 1, 1, 8, 128, 0.5, 0, 10_000, 10_000, 50_000, 0,
        OptionalDouble.empty())), List.of());

    Autoscaler.Decision first = scaler.evaluate(sample, T0);
    Autoscaler.Decision later = scaler.evaluate(sample, T0.plusSeconds(70));

    assertThat(first.rescales()).isFalse();
    assertThat(later.stage(0).explanation()).isEqualTo("src: collecting metrics, 1m10s of 2m; stays at 1");
    assertThat(scaler.evaluate(sample, T0.plusSeconds(120)).rescales()).isTrue();
  }

  /** A source of 1 subtask, half busy at {@code in}. */
  @Test
  void aStageHeldBelowWhatItWantsByItsOwnLimitSaysWhy() {
    // wants ceil(2 * 20k / (10k * 0.7)) = 6, may have 3
    StageSample src = new StageSample(0, "src", 2, 1, 3, 128, 1.0, 0, 10_000, 10_000, 10_000, 0,
        OptionalDouble.empty(), "the source has 3 partitions");
    StageSample unlimited = new StageSample(0, "src", 2, 1, 3, 128, 1.0, 0, 10_000, 10_000, 10_000, 0,
        OptionalDouble.empty());

    ScalingDecision d = decideOn(new JobSample(List.of(src), List.of())).stage(0);

    assertThat(d.to()).isEqualTo(3);
    assertThat(d.explanation()).isEqualTo(
        "src: busy 1.00, true rate 10k/s, target 20k/s, at most 3 (the source has 3 partitions) → 2 → 3");
    assertThat(decideOn(new JobSample(List.of(unlimited), List.of())).stage(0).explanation())
        .as("the job's own bound needs no reason")
        .isEqualTo("src: busy 1.00, true rate 10k/s, target 20k/s → 2 → 3");
  }

  @Test
  void aStageIsNotScaledDownToOneWhenTheGlobalOperatorsThatWouldJoinItsTaskMakeItTooBusy() {
    // src at 2, each subtask 25% busy at 10k/s; at 1 alone it would be 50% busy, under the 70% target
    StageSample src = new StageSample(0, "src", 2, 1, 8, 128, 0.25, 0, 10_000, 10_000, 0, 0,
        OptionalDouble.empty());
    List<JobSample.Edge> edges = List.of(new JobSample.Edge(0, 1));
    StageSample heavy = StageSample.inner(1, "top", 1, 1, 1, 128, 0.4, 0, 10_000, 10);
    StageSample light = StageSample.inner(1, "top", 1, 1, 1, 128, 0.1, 0, 10_000, 10);

    ScalingDecision alone = decideOn(new JobSample(List.of(src, heavy), edges)).stage(0);
    ScalingDecision joined = decideOn(new JobSample(List.of(src, heavy), edges, Map.of(1, 0))).stage(0);
    ScalingDecision joinedLight = decideOn(new JobSample(List.of(src, light), edges, Map.of(1, 0))).stage(0);

    assertThat(alone.to()).as("a global stage that stays on its own").isEqualTo(1);
    assertThat(joined.to()).as("0.5 + 0.4 busy at 1").isEqualTo(2);
    assertThat(joined.explanation())
        .isEqualTo("src: busy 0.25, true rate 40k/s, target 10k/s, busy 0.90 at 1 with top → 2 → 2: as now");
    assertThat(joinedLight.to()).as("0.5 + 0.1 busy at 1").isEqualTo(1);
    assertThatThrownBy(() -> new JobSample(List.of(src, heavy), edges, Map.of(1, 7)))
        .hasMessage("stage 1 joining 7 at 1 names an unknown stage");
  }

  @Test
  void aPoolOfFewSlotsTrimsTheLargestScaleUpsAndLeavesScaleDownsAlone() {
    StageSample gen = new StageSample(0, "gen", 2, 1, 8, 128, 1.0, 0, 20_000, 20_000, 0, 0, OptionalDouble.of(35_000));
    StageSample work = StageSample.inner(1, "work", 4, 1, 32, 128, 0.75, 0, 30_000, 30_000);
    JobSample sample = new JobSample(List.of(gen, work), List.of(new JobSample.Edge(0, 1)));

    assertThat(decideOn(sample).parallelism()).as("without a limit").containsEntry(0, 8).containsEntry(1, 8);
    Autoscaler.Decision trimmed = decideOn(sample.withSlots(10));
    assertThat(trimmed.parallelism()).as("the larger scale-up gives first").containsEntry(0, 4).containsEntry(1, 6);
    assertThat(trimmed.stage(0).explanation()).isEqualTo("gen: busy 1.00, true rate 20k/s, target 35k/s → 2 → 8"
        + " trimmed to 4: the worker pool has 10 slots in all");
    assertThat(trimmed.stage(0).recommended()).as("what the model asks for").isEqualTo(8);

    Autoscaler.Decision held = decideOn(sample.withSlots(6));
    assertThat(held.rescales()).as("6 tasks run already").isFalse();
    assertThat(held.stage(1).explanation()).endsWith(" → 4 → 8 held: the worker pool has 6 slots in all");

    assertThat(Autoscaler.fitted(List.of(new ScalingDecision(0, "a", 4, 1, 1, "a"),
        new ScalingDecision(1, "b", 2, 8, 8, "b")), 6)).as("a scale-down frees slots for a scale-up")
        .extracting(ScalingDecision::to).containsExactly(1, 5);
    assertThat(Autoscaler.fitted(List.of(new ScalingDecision(0, "a", 4, 6, 6, "a"),
        new ScalingDecision(1, "b", 4, 4, 4, "b")), 6)).as("already more tasks than slots: no scale-up")
        .extracting(ScalingDecision::to).containsExactly(4, 4);
    assertThatThrownBy(() -> sample.withSlots(0)).hasMessage("a pool of 0 slots");
  }

  private static StageSample source(double in, double lag, double backlog) {
    return new StageSample(0, "src", 1, 1, 1, 128, in == 0 ? 0 : 0.5, 0, in, in, lag, backlog,
        OptionalDouble.empty());
  }

  private static ScalingDecision decide(StageSample source, StageSample work) {
    return decideOn(new JobSample(List.of(source, work), List.of(new JobSample.Edge(0, 1)))).stage(1);
  }

  /** The decision on a full window of {@code sample}. */
  private static Autoscaler.Decision decideOn(JobSample sample) {
    Autoscaler scaler = new Autoscaler(EAGER);
    Autoscaler.Decision d = null;
    for (int s = 0; s <= 120; s += 10) {
      d = scaler.evaluate(sample, T0.plusSeconds(s));
    }
    return d;
  }
}
