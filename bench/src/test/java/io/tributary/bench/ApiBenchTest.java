package io.tributary.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.spec.JobSpecs;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code bench api}: its schedule, its latency arithmetic and its job (figures not checked). */
class ApiBenchTest {
  @Test
  void theScheduleSpacesRequestsEvenlyFromTheStart() {
    OpenLoopSchedule s = new OpenLoopSchedule(50, Duration.ofSeconds(30));
    assertThat(s.requests()).isEqualTo(1500);
    assertThat(s.dueNanos(1_000, 0)).isEqualTo(1_000);
    assertThat(s.dueNanos(1_000, 1)).isEqualTo(1_000 + 20_000_000);
    assertThat(s.dueNanos(0, 1499)).isEqualTo(29_980_000_000L);
    assertThat(new OpenLoopSchedule(3, Duration.ofSeconds(1)).requests()).isEqualTo(3);
    assertThat(new OpenLoopSchedule(2.5, Duration.ofSeconds(1)).requests()).isEqualTo(3);
    assertThat(new OpenLoopSchedule(50, Duration.ZERO).requests()).isZero();
    assertThatThrownBy(() -> new OpenLoopSchedule(0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aStallIsChargedToEveryRequestItDelayed() {
    // 10 requests/s; the server stalls for 1 s from t=0, then answers at once: every request
    // queued behind the stall completes at t=1s, and its latency counts from when it was due
    OpenLoopSchedule s = new OpenLoopSchedule(10, Duration.ofSeconds(1));
    LatencyRecorder r = new LatencyRecorder();
    long stallEnd = 1_000_000_000L;
    for (long i = 0; i < s.requests(); i++) {
      r.record(OpenLoopSchedule.latency(s.dueNanos(0, i), stallEnd));
    }
    LatencyRecorder.Summary summary = r.summary(stallEnd);
    assertThat(summary.count()).isEqualTo(10);
    assertThat(summary.max()).isEqualTo(1_000_000_000L);
    assertThat(summary.p50()).isEqualTo(500_000_000L);
    assertThat(summary.p99()).isEqualTo(1_000_000_000L);
    assertThat(summary.perSecond()).isEqualTo(10.0);
  }

  @Test
  void percentilesAreNearestRankAndErrorsAreCountedApart() {
    LatencyRecorder r = new LatencyRecorder();
    for (long v = 2000; v >= 1; v--) { // more than the first array, out of order
      r.record(v);
    }
    r.error("first");
    r.error("second");
    LatencyRecorder.Summary s = r.summary(2_000_000_000L);
    assertThat(s.p50()).isEqualTo(1000);
    assertThat(s.p90()).isEqualTo(1800);
    assertThat(s.p99()).isEqualTo(1980);
    assertThat(s.max()).isEqualTo(2000);
    assertThat(s.errors()).isEqualTo(2);
    assertThat(s.firstError()).isEqualTo("first");
    assertThat(s.perSecond()).isEqualTo(1000.0);
    assertThat(LatencyRecorder.percentile(new long[0], 0.5)).isZero();
    assertThat(LatencyRecorder.percentile(new long[] {7}, 0.99)).isEqualTo(7);
  }

  @Test
  void theVerdictComparesBothP99sWithTheTarget() {
    LatencyRecorder.Summary fast = new LatencyRecorder.Summary(10, 0, null, 1, 2, 3_000_000, 4_000_000, 50);
    LatencyRecorder.Summary slow = new LatencyRecorder.Summary(10, 0, null, 1, 2, 60_000_000, 70_000_000, 50);
    assertThat(ApiBench.verdict(fast, fast, 50))
        .isEqualTo("target p99 < 50 ms at 50 req/s: met (GET 3.00 ms, PUT 3.00 ms)");
    assertThat(ApiBench.verdict(fast, slow, 50)).contains(": missed (GET 3.00 ms, PUT 60.0 ms)");
  }

  @Test
  void theBenchmarkJobIsValid() {
    String name = ApiBench.jobName(7);
    assertThat(name).isEqualTo("bench-api-0007");
    assertThat(Planner.plan(JobSpecs.parse(ApiBench.spec(name).toString()), null).jobName()).isEqualTo(name);
  }
}
