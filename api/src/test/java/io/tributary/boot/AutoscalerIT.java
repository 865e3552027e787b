package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The autoscaler on a running job: a job whose stages are busy all the time (an unthrottled
 * generator into a keyed window) is rescaled up to its bound, and the event says why.
 */
class AutoscalerIT {
  @TempDir
  Path tmp;

  @Test
  @Timeout(180)
  void aJobBusyAllTheTimeIsScaledUpToItsBoundAndTheEventHasTheNumbers() throws Exception {
    String spec = """
        name: hot
        parallelism: {initial: 1, min: 1, max: 2}
        checkpoints: {interval: 500ms}
        state: {backend: heap}
        autoscaler: {metricsWindow: 3s, stabilization: 2s, scaleDownDelay: 10m}
        sources:
          numbers: {type: datagen, count: 1000000000, keys: 1000, eventTime: {field: ts}}
        operators:
          - {id: per-key, input: numbers, keyBy: [key], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-key, type: blackhole}
        """;
    try (JobManager jobs = EmbeddedServices.controlPlane(tmp.resolve("data"), ControlTests.settings())) {
      jobs.apply("default", "hot", spec, null);
      ControlTests.awaitState(jobs, "default", "hot", ObservedState.RUNNING);
      ControlTests.await("the autoscaler rescales the window's stage to 2", Duration.ofSeconds(120), () ->
          jobs.get("default", "hot").stageParallelism().getOrDefault("per-key", 1) == 2
              && jobs.get("default", "hot").observed() == ObservedState.RUNNING);
      JobEvent decided = jobs.events("default", "hot").stream()
          .filter(e -> e.type() == JobEvent.Type.AUTOSCALED).findFirst().orElseThrow();
      System.out.println("AutoscalerIT decision: " + decided.message());
      assertThat(decided.message()).startsWith("autoscaler: per-key 1 → 2 (per-key -> out: ")
          .containsPattern("busy \\d\\.\\d\\d, true rate [\\d.]+[kM]?/s, target [\\d.]+[kM]?/s → 1 → 2");
      assertThat(jobs.events("default", "hot")).as("one decision: 2 is the bound")
          .filteredOn(e -> e.type() == JobEvent.Type.AUTOSCALED).hasSize(1);
    }
  }
}
