package io.tributary.scheduler.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskMetrics;
import io.tributary.protocol.WorkerReport;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a job's sources last read something, as scale to zero judges it. */
class JobMetricsTrackerTest {
  private static final AttemptId ATTEMPT = new AttemptId("job", 1);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * An attempt whose workers take 10 s to deploy it reports nothing meanwhile: its sources' quiet
   * time begins when its tasks first report, not when it was deployed.
   */
  @Test
  void aSlowDeploymentIsNotQuietTime() {
    JobMetricsTracker tracker = new JobMetricsTracker();
    tracker.attemptStarted(ATTEMPT, plan());
    for (int s = 0; s <= 10; s++) {
      tracker.sample(T0.plusSeconds(s));
    }
    assertThat(tracker.lastSourceInput()).as("no report yet").isEqualTo(T0.plusSeconds(10));

    tracker.report(metrics(0));
    tracker.sample(T0.plusSeconds(11));
    tracker.sample(T0.plusSeconds(12));
    assertThat(tracker.lastSourceInput()).as("running, nothing read yet: quiet since its tasks began to report")
        .isEqualTo(T0.plusSeconds(10));

    tracker.report(metrics(500));
    tracker.sample(T0.plusSeconds(13));
    tracker.sample(T0.plusSeconds(14));
    assertThat(tracker.lastSourceInput()).as("read at 13 s, quiet since").isEqualTo(T0.plusSeconds(13));
  }

  private static WorkerReport.Metrics metrics(long read) {
    return new WorkerReport.Metrics(ATTEMPT, "w", List.of(new TaskMetrics(1, "0/0", "src (1/1)", 0, 0, true, read, 0,
        Long.MIN_VALUE, false, false, 1, 0, 0, List.of())));
  }

  private static ExecutionPlan plan() {
    return new ExecutionPlan("job", 128, "heap", List.of(new StagePlan(0, "src", 1, List.of(
        new SourcePlan("src", "kafka", "json", null, 0, null, Map.of()),
        new SinkPlan("out", "blackhole", "json", Map.of())), List.of())), List.of());
  }
}
