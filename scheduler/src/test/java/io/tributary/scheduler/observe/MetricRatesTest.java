package io.tributary.scheduler.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.protocol.TaskMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rates, times and watermarks from two snapshots of a running job. */
class MetricRatesTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1000 * MS;
  private static final long NOW_MILLIS = 1_700_000_000_000L;

  /** src (p=2) -> [pass -> out] (p=1). */
  private static final ExecutionPlan PLAN = new ExecutionPlan("job", 128, "heap", List.of(
      new StagePlan(0, "src", 2, List.of(new SourcePlan("src", "datagen", "json", null, 0, null, Map.of())),
          List.of()),
      new StagePlan(1, "pass -> out", 1, List.of(new TransformPlan("pass", null, null),
          new SinkPlan("out", "blackhole", "json", Map.of())), List.of(new ChainLink("pass", null, "out")))),
      List.of(new EdgePlan(0, "src", null, 1, "pass", EdgePlan.Partitioning.HASH, List.of("key"))));

  private static TaskMetrics source(int subtask, long records, long watermark, long busyMs, long bpMs, long at) {
    return task(at, 0, subtask, "src", true, records, 0, watermark, false, busyMs, 0, bpMs,
        List.of(new TaskMetrics.OperatorCounters("src", records, records, watermark, 0, 0)));
  }

  private static TaskMetrics sink(long in, long out, long watermark, long busyMs, long idleMs, long at) {
    return task(at, 1, 0, "pass -> out", false, in, out, watermark, false, busyMs, idleMs, 0,
        List.of(new TaskMetrics.OperatorCounters("pass", in, out, watermark, 0, 0),
            new TaskMetrics.OperatorCounters("out", out, out, watermark, 0, 0)));
  }

  private static TaskMetrics task(long at, int stage, int subtask, String name, boolean source, long in, long out,
      long watermark, boolean idle, long busyMs, long idleMs, long bpMs, List<TaskMetrics.OperatorCounters> ops) {
    return new TaskMetrics(at, stage + "/" + subtask, name, stage, subtask, source, in, out, watermark, idle, false,
        (busyMs + idleMs + bpMs) * MS, idleMs * MS, bpMs * MS, ops);
  }

  @Test
  void ratesAreSummedAndTimesAreTheWorstSubtasks() {
    MetricsSnapshot from = new MetricsSnapshot(List.of(
        source(0, 1_000, NOW_MILLIS - 9_000, 0, 0, 0), source(1, 2_000, NOW_MILLIS - 8_000, 0, 0, 0),
        sink(2_000, 1_000, NOW_MILLIS - 9_000, 0, 0, 0)));
    MetricsSnapshot to = new MetricsSnapshot(List.of(
        source(0, 5_000, NOW_MILLIS - 5_000, 400, 1_600, 2 * SECOND),
        source(1, 4_000, NOW_MILLIS - 4_000, 1_000, 1_000, 2 * SECOND),
        sink(8_000, 5_000, NOW_MILLIS - 6_000, 1_800, 200, 2 * SECOND)));

    MetricRates.JobRates r = MetricRates.compute(PLAN, from, to, NOW_MILLIS, Map.of());

    assertThat(r.recordsInPerSecond()).as("(4000 + 2000) records read in 2 s").isEqualTo(3_000.0);
    assertThat(r.recordsOutPerSecond()).as("4000 records written in 2 s").isEqualTo(2_000.0);
    assertThat(r.watermark()).as("the lowest task watermark").isEqualTo(NOW_MILLIS - 6_000);
    assertThat(r.busyTimeMsPerSecond()).as("the busiest operator's: 1800 ms in 2 s").isEqualTo(900);
    assertThat(r.backpressuredTimeMsPerSecond()).as("that same operator's").isZero();

    assertThat(r.operators()).extracting(OperatorMetricsView::operatorId).containsExactly("src", "pass", "out");
    OperatorMetricsView src = r.operators().get(0);
    assertThat(src.stageId()).isZero();
    assertThat(src.parallelism()).isEqualTo(2);
    assertThat(src.recordsOutPerSecond()).isEqualTo(3_000.0);
    assertThat(src.busyTimeMsPerSecond()).as("the busier subtask: 1000 ms in 2 s").isEqualTo(500);
    assertThat(src.backpressuredTimeMsPerSecond()).as("the more backpressured subtask").isEqualTo(800);
    assertThat(src.watermark()).isEqualTo(Instant.ofEpochMilli(NOW_MILLIS - 5_000));
    assertThat(src.watermarkLagMillis()).isEqualTo(5_000L);
    OperatorMetricsView pass = r.operators().get(1);
    assertThat(pass.recordsInPerSecond()).isEqualTo(3_000.0);
    assertThat(pass.recordsOutPerSecond()).isEqualTo(2_000.0);
    assertThat(pass.stageId()).isEqualTo(1);
    assertThat(pass.parallelism()).isEqualTo(1);
  }

  @Test
  void oneSnapshotGivesWatermarksButNoRates() {
    MetricsSnapshot only = new MetricsSnapshot(List.of(
        source(0, 1_000, NOW_MILLIS - 1_000, 10, 0, SECOND), source(1, 1_000, NOW_MILLIS - 1_000, 10, 0, SECOND),
        sink(2_000, 2_000, NOW_MILLIS - 2_000, 10, 0, SECOND)));

    MetricRates.JobRates r = MetricRates.compute(PLAN, null, only, NOW_MILLIS, Map.of());

    assertThat(r.recordsInPerSecond()).isZero();
    assertThat(r.busyTimeMsPerSecond()).isZero();
    assertThat(r.watermark()).isEqualTo(NOW_MILLIS - 2_000);
    assertThat(r.operators()).hasSize(3).allMatch(o -> o.recordsInPerSecond() == 0);
  }

  @Test
  void noWatermarkBeforeTheFirstOrAfterTheInputEndedOrWhenNotRunning() {
    MetricsSnapshot none = new MetricsSnapshot(List.of(
        source(0, 1, Long.MIN_VALUE, 0, 0, SECOND), source(1, 1, NOW_MILLIS, 0, 0, SECOND),
        sink(2, 2, Long.MIN_VALUE, 0, 0, SECOND)));
    assertThat(MetricRates.compute(PLAN, null, none, NOW_MILLIS, Map.of()).watermark()).isEqualTo(MetricRates.NONE);
    assertThat(MetricRates.compute(PLAN, null, none, NOW_MILLIS, Map.of()).operators().get(0).watermark()).isNull();

    MetricsSnapshot ended = new MetricsSnapshot(List.of(
        source(0, 1, Long.MAX_VALUE, 0, 0, SECOND), source(1, 1, Long.MAX_VALUE, 0, 0, SECOND),
        sink(2, 2, Long.MAX_VALUE, 0, 0, SECOND)));
    assertThat(MetricRates.compute(PLAN, null, ended, NOW_MILLIS, Map.of()).watermark()).isEqualTo(MetricRates.NONE);

    MetricRates.JobRates stopped = MetricRates.compute(PLAN, null, null, NOW_MILLIS,
        Map.of("out", new MetricRates.Counts(3, 4)));
    assertThat(stopped.watermark()).isEqualTo(MetricRates.NONE);
    assertThat(stopped.operators()).extracting(OperatorMetricsView::operatorId).containsExactly("src", "pass", "out");
    assertThat(stopped.operators().get(2).lateRecordsDropped()).isEqualTo(3);
    assertThat(stopped.operators().get(2).malformedRecords()).isEqualTo(4);
  }

  @Test
  void anIdleTaskDoesNotHoldTheJobsWatermarkBack() {
    MetricsSnapshot s = new MetricsSnapshot(List.of(
        task(SECOND, 0, 0, "src", true, 1, 0, NOW_MILLIS - 60_000, true, 0, 0, 0, List.of()),
        source(1, 1, NOW_MILLIS - 1_000, 0, 0, SECOND), sink(2, 2, NOW_MILLIS - 1_000, 0, 0, SECOND)));
    assertThat(MetricRates.watermark(s)).isEqualTo(NOW_MILLIS - 1_000);
  }

  @Test
  void eachTasksRatesAreOverItsOwnInterval() {
    // the sources were read 2 s apart, the sink 1 s apart (reports of different workers, sampled together)
    MetricsSnapshot from = new MetricsSnapshot(List.of(source(0, 0, 0, 0, 0, 0), source(1, 0, 0, 0, 0, 0),
        sink(0, 0, 0, 0, 0, SECOND)));
    MetricsSnapshot to = new MetricsSnapshot(List.of(source(0, 2_000, 0, 1_000, 0, 2 * SECOND),
        source(1, 4_000, 0, 2_000, 0, 2 * SECOND), sink(1_000, 1_000, 0, 500, 0, 2 * SECOND)));

    MetricRates.JobRates r = MetricRates.compute(PLAN, from, to, NOW_MILLIS, Map.of());

    assertThat(r.recordsInPerSecond()).as("1000/s + 2000/s").isEqualTo(3_000.0);
    assertThat(r.recordsOutPerSecond()).as("1000 records in the sink's 1 s").isEqualTo(1_000.0);
    assertThat(r.operators().get(0).busyTimeMsPerSecond()).as("2000 ms in 2 s").isEqualTo(1000);
    assertThat(r.operators().get(2).busyTimeMsPerSecond()).as("500 ms in 1 s").isEqualTo(500);
  }

  @Test
  void timesAreClampedToASecondPerSecond() {
    assertThat(MetricRates.msPerSecond(3 * SECOND, SECOND)).isEqualTo(1000);
    assertThat(MetricRates.msPerSecond(-5, SECOND)).isZero();
    assertThat(MetricRates.msPerSecond(250 * MS, SECOND)).isEqualTo(250);
    assertThat(MetricRates.msPerSecond(1, 0)).isZero();
    assertThat(MetricRates.perSecond(500, SECOND / 2)).isEqualTo(1000.0);
  }
}
