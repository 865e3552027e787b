package io.tributary.scheduler.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.plan.AggregatePlan;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.TaskMetrics;
import io.tributary.protocol.WorkerReport;
import io.tributary.scheduler.autoscale.JobSample;
import io.tributary.scheduler.autoscale.StageSample;
import io.tributary.scheduler.metadata.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the autoscaler's model is given of a running job, and the gauge of what it recommends. */
class StageRecommendationsTest {
  private static final long SECOND = 1_000_000_000L;

  /** src (p=1) -> [work -> out] (p=1), 128 key groups. */
  private static final ExecutionPlan PLAN = new ExecutionPlan("job", 128, "heap", List.of(
      new StagePlan(0, "src", 1, List.of(new SourcePlan("src", "datagen", "json", null, 0, null, Map.of())),
          List.of()),
      new StagePlan(1, "work -> out", 1, List.of(new TransformPlan("work", null, null),
          new SinkPlan("out", "blackhole", "json", Map.of())), List.of(new ChainLink("work", null, "out")))),
      List.of(new EdgePlan(0, "src", null, 1, "work", EdgePlan.Partitioning.HASH, List.of("key"))));

  @Test
  void aStageIsSampledByItsFirstOperatorsInputItsLastOperatorsOutputAndItsBusiestTimes() {
    List<OperatorMetricsView> ops = List.of(
        view("src", 0, 1, 10_000, 10_000, 500, 400),
        view("work", 1, 1, 10_000, 5_000, 900, 0),
        view("out", 1, 1, 5_000, 5_000, 300, 50));

    JobSample s = StageSamples.of(PLAN, ops, new ObservedJob.ParallelismBounds(1, 4), Map.of(), Map.of());

    assertThat(s.edges()).containsExactly(new JobSample.Edge(0, 1));
    StageSample work = s.stage(1);
    assertThat(work.name()).isEqualTo("work -> out");
    assertThat(work.recordsInPerSecond()).isEqualTo(10_000);
    assertThat(work.recordsOutPerSecond()).isEqualTo(5_000);
    assertThat(work.busy()).isEqualTo(0.9);
    assertThat(work.backpressured()).isEqualTo(0.05);
    assertThat(work.min()).isEqualTo(1);
    assertThat(work.max()).isEqualTo(4);
    assertThat(work.keyGroups()).isEqualTo(128);
    assertThat(StageSamples.of(PLAN, ops.subList(0, 1), null, Map.of(), Map.of())).as("rates that miss a stage")
        .isNull();
    assertThat(s.stage(0).configuredRate()).as("an unthrottled generator").isEmpty();

    ExecutionPlan throttled = new ExecutionPlan("job", 128, "heap", List.of(
        new StagePlan(0, "src", 1, List.of(new SourcePlan("src", "datagen", "json", null, 2_000, null, Map.of())),
            List.of()), PLAN.stages().get(1)), PLAN.edges());
    assertThat(StageSamples.of(throttled, ops, null, Map.of(), Map.of()).stage(0).configuredRate()).hasValue(2_000);
    assertThat(s.stage(0).backlog()).as("a source that cannot tell its backlog").isZero();

    StageSample lagging = StageSamples.of(PLAN, ops, null, Map.of("src",
        new SourceBacklogs.Backlog(90_000, java.util.OptionalDouble.of(11_500), 0)), Map.of()).stage(0);
    assertThat(lagging.backlog()).isEqualTo(90_000);
    assertThat(lagging.lagGrowthRate()).as("written 11.5k/s, read 10k/s").isEqualTo(1_500);
    assertThat(StageSamples.of(PLAN, ops, null, Map.of("src",
        new SourceBacklogs.Backlog(90_000, java.util.OptionalDouble.empty(), 0)), Map.of()).stage(0)
        .lagGrowthRate())
        .as("no write rate yet").isZero();
    assertThat(StageSamples.of(PLAN, ops, null, Map.of("work",
        new SourceBacklogs.Backlog(5, java.util.OptionalDouble.of(5), 3)), Map.of()).stage(1).backlog())
        .as("only a source stage has a backlog").isZero();

    StageSample partitioned = StageSamples.of(PLAN, ops, new ObservedJob.ParallelismBounds(1, 8), Map.of("src",
        new SourceBacklogs.Backlog(0, java.util.OptionalDouble.of(10_000), 3)), Map.of()).stage(0);
    assertThat(partitioned.max()).as("a source with 3 partitions, whatever the bounds").isEqualTo(3);
    assertThat(partitioned.maxReason()).isEqualTo("the source has 3 partitions");
    assertThat(s.stage(0).maxReason()).as("bounded by the job alone").isNull();
    assertThat(StageSamples.of(PLAN, ops, new ObservedJob.ParallelismBounds(1, 2), Map.of("src",
        new SourceBacklogs.Backlog(0, java.util.OptionalDouble.of(10_000), 3)), Map.of()).stage(0).max())
        .as("nor above the bounds").isEqualTo(2);
    assertThat(StageSamples.of(PLAN, ops, new ObservedJob.ParallelismBounds(1, 8), Map.of("src",
        new SourceBacklogs.Backlog(0, java.util.OptionalDouble.of(10_000), 0)), Map.of()).stage(0).max())
        .as("a source that cannot tell").isEqualTo(8);
    assertThat(StageSamples.of(PLAN, ops, new ObservedJob.ParallelismBounds(1, 8), Map.of("work",
        new SourceBacklogs.Backlog(0, java.util.OptionalDouble.of(10_000), 3)), Map.of()).stage(1).max())
        .as("only a source stage").isEqualTo(8);
  }

  @Test
  void theGaugeShowsTheCurrentParallelismUntilAFullWindowThenWhatTheModelWants() {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    JobMetricsTracker tracker = new JobMetricsTracker();
    ObservedJob job = running(tracker);
    AttemptId attempt = new AttemptId("j", 1);
    tracker.attemptStarted(attempt, PLAN);
    try (ControlMetrics metrics = new ControlMetrics(() -> List.of(job), List.of("RUNNING"), clock)) {
      // the work stage is busy all the time at 10k records/s: at 70% it would need 2 subtasks
      for (int step = 0; step <= 20; step++) {
        long at = step * 10 * SECOND;
        long records = step * 100_000L;
        tracker.report(new WorkerReport.Metrics(attempt, "w", List.of(
            task(at, 0, "src", true, records, records, at / 2, at / 2),
            task(at, 1, "work -> out", false, records, records, 0, 0))));
        metrics.sample();
        String scrape = metrics.scrape();
        String wanted = step < 12 ? "1.0" : "2.0";
        assertThat(scrape).as("after %d s", step * 10)
            .contains("tributary_stage_recommended_parallelism{job=\"j\",project=\"p\",stage=\"work -> out\"} "
                + wanted)
            .contains("tributary_stage_recommended_parallelism{job=\"j\",project=\"p\",stage=\"src\"} 1.0");
        clock.advance(Duration.ofSeconds(10));
      }
      tracker.attemptEnded(attempt);
      metrics.sample();
      assertThat(metrics.scrape()).as("a job that does not run has no recommendation")
          .doesNotContain("tributary_stage_recommended_parallelism{");
    }
  }

  @Test
  void aStageThatBeginsWithAGlobalWindowIsNeverRecommendedAboveOneWhileItsSourceIsScaledUp() {
    // src (p=1) -> [total -> out] (p=1): a window without keys always runs at 1
    ExecutionPlan plan = new ExecutionPlan("job", 128, "heap", List.of(PLAN.stages().get(0),
        new StagePlan(1, "total -> out", 1, List.of(
            new WindowAggregatePlan("total", List.of(), WindowPlan.tumbling(10_000), 0, null,
                List.of(new AggregatePlan("n", AggregatePlan.Function.COUNT, null))),
            new SinkPlan("out", "blackhole", "json", Map.of())), List.of(new ChainLink("total", null, "out")))),
        List.of(new EdgePlan(0, "src", null, 1, "total", EdgePlan.Partitioning.HASH, List.of())));
    JobSample sample = StageSamples.of(plan, List.of(
        view("src", 0, 1, 10_000, 10_000, 1000, 0),
        view("total", 1, 1, 10_000, 10, 1000, 0),
        view("out", 1, 1, 10, 10, 0, 0)), new ObservedJob.ParallelismBounds(1, 8), Map.of(), Map.of());
    assertThat(sample.stage(1).max()).as("the global window's stage").isEqualTo(1);
    assertThat(sample.stage(1).maxReason()).isEqualTo("a window, aggregate or top-N without keys runs at 1");
    assertThat(sample.stage(0).max()).as("its source's stage").isEqualTo(8);

    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    JobMetricsTracker tracker = new JobMetricsTracker();
    AttemptId attempt = new AttemptId("j", 1);
    tracker.attemptStarted(attempt, plan);
    ObservedJob job = running(tracker);
    try (ControlMetrics metrics = new ControlMetrics(() -> List.of(job), List.of("RUNNING"), clock)) {
      // both stages are busy all the time at 10k records/s: at 70% each would need 2 subtasks
      for (int step = 0; step <= 20; step++) {
        long at = step * 10 * SECOND;
        long records = step * 100_000L;
        tracker.report(new WorkerReport.Metrics(attempt, "w", List.of(
            task(at, 0, "src", true, records, records, 0, 0),
            task(at, 1, "total -> out", false, records, records / 1000, 0, 0))));
        metrics.sample();
        assertThat(metrics.scrape()).as("after %d s", step * 10)
            .contains("tributary_stage_recommended_parallelism{job=\"j\",project=\"p\",stage=\"src\"} "
                + (step < 12 ? "1.0" : "2.0"))
            .contains("tributary_stage_recommended_parallelism{job=\"j\",project=\"p\",stage=\"total -> out\"} 1.0");
        clock.advance(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void aSourceStaysSplitWhenTheGlobalWindowThatWouldJoinItsTaskAtOneMakesItTooBusy() {
    // src (p=2) -> [total -> out] (p=1)
    ExecutionPlan plan = new ExecutionPlan("job", 128, "heap", List.of(
        new StagePlan(0, "src", 2, PLAN.stages().get(0).operators(), List.of()),
        new StagePlan(1, "total -> out", 1, List.of(
            new WindowAggregatePlan("total", List.of(), WindowPlan.tumbling(10_000), 0, null,
                List.of(new AggregatePlan("n", AggregatePlan.Function.COUNT, null))),
            new SinkPlan("out", "blackhole", "json", Map.of())), List.of(new ChainLink("total", null, "out")))),
        List.of(new EdgePlan(0, "src", null, 1, "total", EdgePlan.Partitioning.HASH, List.of())));
    assertThat(StageSamples.of(plan, List.of(view("src", 0, 2, 1, 1, 0, 0), view("total", 1, 1, 1, 1, 0, 0),
        view("out", 1, 1, 1, 1, 0, 0)), null, Map.of(), Map.of("total", "src", "gone", "src")).joinsAtOne())
        .as("by stage id; a head no stage begins with is left out").isEqualTo(Map.of(1, 0));

    for (Map<String, String> joins : List.of(Map.<String, String>of(), Map.of("total", "src"))) {
      MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
      JobMetricsTracker tracker = new JobMetricsTracker();
      AttemptId attempt = new AttemptId("j", 1);
      tracker.attemptStarted(attempt, plan);
      ObservedJob job = running(tracker, joins);
      try (ControlMetrics metrics = new ControlMetrics(() -> List.of(job), List.of("RUNNING"), clock)) {
        // 10k records/s: each source subtask 25% busy (50% at 1), the window 40% busy
        for (int step = 0; step <= 12; step++) {
          long at = step * 10 * SECOND;
          long records = step * 50_000L;
          tracker.report(new WorkerReport.Metrics(attempt, "w", List.of(
              task(at, 0, 0, "src", true, records, records, at * 3 / 4, 0),
              task(at, 0, 1, "src", true, records, records, at * 3 / 4, 0),
              task(at, 1, 0, "total -> out", false, 2 * records, 2 * records / 1000, at * 6 / 10, 0))));
          metrics.sample();
          clock.advance(Duration.ofSeconds(10));
        }
        assertThat(metrics.scrape()).as("joins %s", joins)
            .contains("tributary_stage_recommended_parallelism{job=\"j\",project=\"p\",stage=\"src\"} "
                + (joins.isEmpty() ? "1.0" : "2.0"));
      }
    }
  }

  /** A running job "p/j" whose metrics {@code tracker} holds. */
  private static ObservedJob running(JobMetricsTracker tracker) {
    return running(tracker, Map.of());
  }

  /** As {@link #running(JobMetricsTracker)}, whose stages {@code joinsAtOne} would join others at 1. */
  private static ObservedJob running(JobMetricsTracker tracker, Map<String, String> joinsAtOne) {
    return new ObservedJob() {
      @Override
      public Map<String, String> joinsAtOne() {
        return joinsAtOne;
      }

      @Override
      public String project() {
        return "p";
      }

      @Override
      public String name() {
        return "j";
      }

      @Override
      public boolean retired() {
        return false;
      }

      @Override
      public String stateName() {
        return "RUNNING";
      }

      @Override
      public long restarts() {
        return 0;
      }

      @Override
      public JobMetricsTracker metrics() {
        return tracker;
      }
    };
  }

  private static OperatorMetricsView view(String id, int stage, int p, double in, double out, int busyMs, int bpMs) {
    return new OperatorMetricsView(id, stage, p, in, out, null, null, busyMs, bpMs, 0, 0, null, null);
  }

  private static TaskMetrics task(long at, int stage, String name, boolean source, long in, long out, long idle,
      long backpressured) {
    return task(at, stage, 0, name, source, in, out, idle, backpressured);
  }

  private static TaskMetrics task(long at, int stage, int subtask, String name, boolean source, long in, long out,
      long idle, long backpressured) {
    return new TaskMetrics(at, stage + "/" + subtask, name, stage, subtask, source, in, out, Long.MIN_VALUE, false,
        false, at, idle, backpressured, List.of(new TaskMetrics.OperatorCounters(name.split(" ")[0], in, out, Long.MIN_VALUE, 0, 0)));
  }
}
