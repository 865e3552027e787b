package io.tributary.scheduler.autoscale;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The autoscaler against a {@link SimulatedJob}: a source, a keyed stage, a sink, one sample per 10 s. */
class AutoscalerSimulationTest {
  private static final AutoscalerSettings ON = AutoscalerSettings.DEFAULTS.withEnabled(true);
  private static final int AUCTION = 1;

  /** bids (200k/s per subtask) → per-auction (10k/s per subtask, emits half) → sink (500k/s). */
  private static SimulatedJob job(long seed, int perAuction, int keyGroups) {
    return new SimulatedJob(seed, 0.05, keyGroups)
        .stage("bids", 1, 1, 4, 200_000, 1)
        .stage("per-auction", perAuction, 1, 32, 10_000, 0.5)
        .stage("sink", 1, 1, 4, 500_000, 1);
  }

  @Test
  void aLoadStepIsAbsorbedInAtMostThreeDecisions() {
    SimulatedJob job = job(1, 2, 128).load(10_000);
    Autoscaler scaler = new Autoscaler(ON);
    assertThat(rescales(run(job, scaler, Duration.ofMinutes(10)))).isEmpty();

    job.load(50_000);
    int decisions = 0;
    Instant end = job.now().plus(Duration.ofMinutes(30));
    while (!job.keepsUp("per-auction") && job.now().isBefore(end)) {
      Autoscaler.Decision d = step(job, scaler);
      if (d.rescales()) {
        decisions++;
      }
    }

    assertThat(job.keepsUp("per-auction")).as("per-auction at %d keeps up with 50k/s",
        job.parallelism("per-auction")).isTrue();
    assertThat(decisions).isBetween(1, 3);
  }

  @ParameterizedTest(name = "seed {0}, per-auction starting at {1}")
  @CsvSource({"1, 3", "2, 3", "3, 4", "4, 4", "5, 3"})
  void aNoisySteadyLoadDoesNotFlap(long seed, int start) {
    SimulatedJob job = job(seed, start, 128).load(25_000);
    Autoscaler scaler = new Autoscaler(ON);

    List<ScalingDecision> rescales = rescales(run(job, scaler, Duration.ofHours(1)));

    assertThat(rescales).as("%s", rescales).hasSizeLessThanOrEqualTo(1);
    assertThat(rescales).allSatisfy(d -> assertThat(d.to()).isGreaterThan(d.from()));
    assertThat(job.parallelism("per-auction")).isEqualTo(4);
  }

  @Test
  void scalesDownOnlyAfterTheDelayToTheLargestParallelismWantedInIt() {
    SimulatedJob job = job(7, 8, 120).load(14_000);
    Autoscaler scaler = new Autoscaler(ON);
    List<Autoscaler.Decision> decisions = new ArrayList<>(run(job, scaler, Duration.ofSeconds(150)));
    job.load(32_000);
    decisions.addAll(run(job, scaler, Duration.ofSeconds(150)));
    job.load(14_000);
    decisions.addAll(run(job, scaler, Duration.ofMinutes(10)));

    Instant wantedSince = null;
    int largest = 0;
    ScalingDecision down = null;
    Instant downAt = null;
    for (Autoscaler.Decision d : decisions) {
      ScalingDecision s = d.stage(AUCTION);
      if (s.recommended() < s.from() && wantedSince == null) {
        wantedSince = d.at();
      }
      largest = wantedSince == null ? largest : Math.max(largest, s.recommended());
      if (s.rescales()) {
        down = s;
        downAt = d.at();
        break;
      }
      if (wantedSince != null) {
        assertThat(s.explanation()).contains("scale-down wanted for");
      }
    }

    assertThat(down).isNotNull();
    assertThat(Duration.between(wantedSince, downAt)).isGreaterThanOrEqualTo(ON.scaleDownDelay());
    assertThat(down.from()).isEqualTo(8);
    assertThat(down.to()).isEqualTo(largest).isEqualTo(5).isGreaterThan(down.recommended());
    assertThat(down.explanation()).contains("→ 8 → 5", "the largest wanted");
  }

  @Test
  void aStageThatParallelismDoesNotSpeedUpIsScaledUpOnce() {
    SimulatedJob job = new SimulatedJob(3, 0.05, 128)
        .stage("orders", 1, 1, 4, 1_000_000, 1)
        .bottleneck("enrich", 2, 1, 16, 20_000, 1)
        .stage("sink", 1, 1, 4, 1_000_000, 1)
        .load(30_000);
    Autoscaler scaler = new Autoscaler(ON);

    List<Autoscaler.Decision> decisions = run(job, scaler, Duration.ofHours(1));

    List<ScalingDecision> enrich = rescales(decisions).stream().filter(d -> d.stageId() == 1).toList();
    assertThat(enrich).hasSize(1);
    assertThat(enrich.get(0).to()).isGreaterThan(2);
    ScalingDecision last = decisions.get(decisions.size() - 1).stage(1);
    assertThat(last.recommended()).isGreaterThan(last.from());
    assertThat(last.to()).isEqualTo(last.from());
    assertThat(last.explanation()).contains("ineffective scale-up", "not scaling up again");
  }

  @Test
  void theDecisionCapHoldsFurtherRescales() {
    SimulatedJob job = job(1, 2, 128).load(50_000);
    Autoscaler scaler = new Autoscaler(ON.withMaxDecisionsPerHour(1));

    List<Autoscaler.Decision> decisions = run(job, scaler, Duration.ofMinutes(30));

    assertThat(rescales(decisions)).hasSize(1);
    assertThat(decisions).anySatisfy(d -> assertThat(d.stage(AUCTION).explanation())
        .contains("held: decision cap, 1 rescales in the last hour"));
  }

  @Test
  void disabledOnlyRecommends() {
    SimulatedJob job = job(1, 2, 128).load(50_000);
    Autoscaler scaler = new Autoscaler(AutoscalerSettings.DEFAULTS);

    List<Autoscaler.Decision> decisions = run(job, scaler, Duration.ofMinutes(10));

    assertThat(rescales(decisions)).isEmpty();
    assertThat(scaler.recommendedParallelism().get(AUCTION)).isGreaterThan(2);
    assertThat(decisions.get(decisions.size() - 1).stage(AUCTION).explanation()).contains("held: autoscaler disabled");
  }

  private static Autoscaler.Decision step(SimulatedJob job, Autoscaler scaler) {
    Autoscaler.Decision d = scaler.evaluate(job.step(), job.now());
    job.apply(d);
    return d;
  }

  private static List<Autoscaler.Decision> run(SimulatedJob job, Autoscaler scaler, Duration d) {
    List<Autoscaler.Decision> out = new ArrayList<>();
    Instant end = job.now().plus(d);
    while (job.now().isBefore(end)) {
      out.add(step(job, scaler));
    }
    return out;
  }

  private static List<ScalingDecision> rescales(List<Autoscaler.Decision> decisions) {
    return decisions.stream().flatMap(d -> d.stages().stream()).filter(ScalingDecision::rescales).toList();
  }
}
