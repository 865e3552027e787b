package io.tributary.scheduler.autoscale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Settings and samples refuse values out of range, naming them. */
class AutoscalerSettingsTest {
  private static final AutoscalerSettings D = AutoscalerSettings.DEFAULTS;

  @Test
  void defaults() {
    assertThat(D.enabled()).isFalse();
    assertThat(D.targetUtilization()).isEqualTo(0.7);
    assertThat(D.utilizationBand()).isEqualTo(0.1);
    assertThat(D.metricsWindow()).isEqualTo(Duration.ofMinutes(2));
    assertThat(D.stabilization()).isEqualTo(Duration.ofMinutes(1));
    assertThat(D.scaleDownDelay()).isEqualTo(Duration.ofMinutes(5));
    assertThat(D.catchUpDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(D.maxDecisionsPerHour()).isEqualTo(6);
    assertThat(D.ineffectiveScaleUpThreshold()).isEqualTo(0.1);
  }

  @Test
  void eachSettingOutOfRangeIsNamed() {
    assertThatThrownBy(() -> D.withUtilization(0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("autoscaler setting targetUtilization must be in (0, 1], was 0.0");
    assertThatThrownBy(() -> D.withUtilization(1.2, 0.1)).hasMessageContaining("targetUtilization");
    assertThatThrownBy(() -> D.withUtilization(0.7, 0.7))
        .hasMessage("autoscaler setting utilizationBand must be in [0, targetUtilization 0.7), was 0.7");
    assertThatThrownBy(() -> D.withUtilization(0.7, -0.1)).hasMessageContaining("utilizationBand");
    assertThatThrownBy(() -> D.withMetricsWindow(Duration.ZERO))
        .hasMessage("autoscaler setting metricsWindow must be longer than zero, was PT0S");
    assertThatThrownBy(() -> D.withStabilization(Duration.ofSeconds(-1)))
        .hasMessage("autoscaler setting stabilization must be zero or longer, was PT-1S");
    assertThatThrownBy(() -> D.withScaleDownDelay(Duration.ofSeconds(-1))).hasMessageContaining("scaleDownDelay");
    assertThatThrownBy(() -> D.withCatchUpDuration(Duration.ZERO)).hasMessageContaining("catchUpDuration");
    assertThatThrownBy(() -> D.withMaxDecisionsPerHour(0))
        .hasMessage("autoscaler setting maxDecisionsPerHour must be at least 1, was 0");
    assertThatThrownBy(() -> D.withIneffectiveScaleUpThreshold(1))
        .hasMessage("autoscaler setting ineffectiveScaleUpThreshold must be in [0, 1), was 1.0");
    assertThatThrownBy(() -> D.withMetricsWindow(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("metricsWindow");
  }

  @Test
  void samplesOutOfRangeNameTheStageAndTheValue() {
    assertThatThrownBy(() -> StageSample.inner(3, "join", 2, 4, 3, 128, 0.5, 0, 1, 1))
        .hasMessage("stage join: parallelism 2, min 4, max 3 and keyGroups 128 must be at least 1,"
            + " and max at least min");
    assertThatThrownBy(() -> StageSample.inner(3, "join", 2, 1, 3, 128, 1.5, 0, 1, 1))
        .hasMessage("stage join: busy must be in 0..1, was 1.5");
    assertThatThrownBy(() -> StageSample.inner(3, "join", 2, 1, 3, 128, 0.5, 0, Double.NaN, 1))
        .hasMessageContaining("recordsInPerSecond");
    assertThatThrownBy(() -> new StageSample(0, "gen", 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, OptionalDouble.of(0)))
        .hasMessage("stage gen: configuredRate must be above 0, was 0.0");
  }

  @Test
  void jobSamplesRefuseCyclesAndUnknownStages() {
    StageSample a = StageSample.inner(0, "a", 1, 1, 1, 1, 0, 0, 0, 0);
    StageSample b = StageSample.inner(1, "b", 1, 1, 1, 1, 0, 0, 0, 0);

    assertThatThrownBy(() -> new JobSample(List.of(a, b), List.of(new JobSample.Edge(0, 1), new JobSample.Edge(1, 0))))
        .hasMessage("the edges form a cycle");
    assertThatThrownBy(() -> new JobSample(List.of(a), List.of(new JobSample.Edge(0, 1))))
        .hasMessage("edge 0 -> 1 names an unknown stage");
    assertThatThrownBy(() -> new JobSample(List.of(a, a), List.of())).hasMessage("stage id 0 appears twice");
  }
}
