package io.tributary.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.protocol.TaskMetrics;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.stream.Record;
import io.tributary.worker.task.OutputTap;
import io.tributary.worker.task.StreamTask;
import io.tributary.worker.task.TaskTimes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Per-task time accounting, per-operator counters and output samples of a running job. */
@Timeout(60)
class TaskMetricsTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final long WAITED = TimeUnit.MILLISECONDS.toNanos(200);

  @Test
  void aTaskWhoseReceiverTakesNothingAccruesBackpressuredTime() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch sinkBlocked = new CountDownLatch(1);
    TestConnectors connectors = new TestConnectors().sink("test-blocked", r -> {
      sinkBlocked.countDown();
      try {
        release.await(); // the receiving task takes nothing more: the sender runs out of credit
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    LocalAttempt job = TestAttempts.start(genToSink("backpressured", 200_000, "test-blocked"),
        InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory())).withConnectors(connectors).withCredits(2));
    try {
      assertThat(sinkBlocked.await(30, TimeUnit.SECONDS)).isTrue();
      StreamTask source = job.tasks().get(0);
      StreamTask sink = job.tasks().get(1);
      await("the source accrues backpressured time and the stuck sink busy time",
          () -> source.times().read(System.nanoTime()).backpressuredNanos() > WAITED
              && sink.times().read(System.nanoTime()).busyNanos() > WAITED);

      TaskTimes.Sample src = source.times().read(System.nanoTime());
      TaskTimes.Sample snk = sink.times().read(System.nanoTime());
      assertThat(src.backpressuredNanos()).isGreaterThan(src.busyNanos());
      assertThat(snk.backpressuredNanos()).as("the sink has nobody to wait for").isZero();
      assertThat(snk.busyNanos()).as("the sink is stuck in its writer: busy").isGreaterThan(WAITED);
      List<TaskMetrics> snapshot = job.metrics().snapshot();
      assertThat(snapshot).extracting(TaskMetrics::stageId).containsExactly(0, 1);
      assertThat(snapshot.get(0).backpressuredNanos()).isGreaterThan(WAITED);
    } finally {
      release.countDown();
      job.close();
    }
  }

  @Test
  void aTaskWithNothingToReadAccruesIdleTime() throws Exception {
    LocalAttempt job = emptySourceToSink(new Empty());
    try {
      for (StreamTask t : job.tasks()) {
        await(t.name() + " accrues idle time", () -> t.times().read(System.nanoTime()).idleNanos() > WAITED);
        TaskTimes.Sample s = t.times().read(System.nanoTime());
        assertThat(s.idleNanos()).as(t.name()).isGreaterThan(s.busyNanos());
        assertThat(s.backpressuredNanos()).as(t.name()).isZero();
      }
    } finally {
      job.close();
    }
  }

  @Test
  void aSourceWhoseReaderWaitsForItsSystemAndFindsNothingIsIdleNotBusy() throws Exception {
    LocalAttempt job = emptySourceToSink(new Empty(TimeUnit.MILLISECONDS.toNanos(2)));
    try {
      StreamTask source = job.tasks().get(0);
      await("the polling source accrues idle time", () -> source.times().read(System.nanoTime()).idleNanos() > WAITED);
      TaskTimes.Sample s = source.times().read(System.nanoTime());
      assertThat(s.busyNanos()).as("time in reads that found nothing is not busy").isLessThan(s.idleNanos() / 4);
    } finally {
      job.close();
    }
  }

  @Test
  void operatorsCountTheirRecordsAndSampleTheirOutput() throws Exception {
    List<Record> written = TestConnectors.newCollection();
    TestConnectors connectors = new TestConnectors().collect("test-collect", written);
    ExecutionPlan plan = new ExecutionPlan("counted", 128, "heap", List.of(
        new StagePlan(0, "gen -> even", 1, List.of(
            new SourcePlan("gen", "datagen", "json", null, 0, null, Map.of("count", 10_000L, "keys", 10)),
            new TransformPlan("even", "id % 2 = 0", null)),
            List.of(new ChainLink("gen", null, "even"))),
        new StagePlan(1, "out", 2, List.of(new SinkPlan("out", "test-collect", "json", Map.of())), List.of())),
        List.of(new EdgePlan(0, "even", null, 1, "out", EdgePlan.Partitioning.HASH, List.of("key"))));
    LocalAttempt job = TestAttempts.start(plan, InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory()))
        .withConnectors(connectors));
    job.await(Long.MAX_VALUE, TimeUnit.DAYS);

    List<TaskMetrics> s = job.metrics().snapshot();
    Map<String, long[]> byOperator = new LinkedHashMap<>();
    for (TaskMetrics t : s) {
      assertThat(t.finished()).isTrue();
      for (TaskMetrics.OperatorCounters o : t.operators()) {
        byOperator.merge(o.operatorId(), new long[] {o.recordsIn(), o.recordsOut()},
            (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
      }
    }
    assertThat(byOperator.keySet()).containsExactly("gen", "even", "out");
    assertThat(byOperator.get("gen")).containsExactly(10_000, 10_000);
    assertThat(byOperator.get("even")).containsExactly(10_000, 5_000);
    assertThat(byOperator.get("out")).containsExactly(5_000, 5_000);
    assertThat(job.metrics().recordsIn()).isEqualTo(10_000);
    assertThat(job.metrics().recordsOut()).isEqualTo(5_000);

    List<OutputTap> taps = job.metrics().taps("out");
    assertThat(taps).hasSize(2).extracting(OutputTap::subtask).containsExactly(0, 1);
    for (OutputTap tap : taps) {
      List<OutputTap.Entry> kept = tap.since(0);
      assertThat(kept).isNotEmpty().hasSizeLessThanOrEqualTo(OutputTap.CAPACITY);
      assertThat(kept).allMatch(e -> written.contains(e.record()));
    }
    assertThat(job.metrics().taps("even").get(0).since(0))
        .allMatch(e -> ((Long) e.record().get("id")) % 2 == 0).isNotEmpty();
    assertThat(job.metrics().taps("nonexistent")).isEmpty();
  }

  private static ExecutionPlan genToSink(String name, long count, String sinkType) {
    return new ExecutionPlan(name, 128, "heap", List.of(
        new StagePlan(0, "gen", 1, List.of(new SourcePlan("gen", "datagen", "json", null, 0, null,
            Map.of("count", count, "keys", 100))), List.of()),
        new StagePlan(1, "out", 1, List.of(new SinkPlan("out", sinkType, "json", Map.of())), List.of())),
        List.of(new EdgePlan(0, "gen", null, 1, "out", EdgePlan.Partitioning.HASH, List.of("key"))));
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + DEADLINE + ": " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  /** One split that never has anything to read. */
  /** Starts {@code source} -> a sink that drops everything, one subtask each. */
  private static LocalAttempt emptySourceToSink(Empty source) {
    TestConnectors connectors = new TestConnectors().source("test-empty", source).sink("test-none", r -> {});
    ExecutionPlan plan = new ExecutionPlan("idle", 128, "heap", List.of(
        new StagePlan(0, "src", 1, List.of(new SourcePlan("src", "test-empty", "json", null, 0, null, Map.of())),
            List.of()),
        new StagePlan(1, "out", 1, List.of(new SinkPlan("out", "test-none", "json", Map.of())), List.of())),
        List.of(new EdgePlan(0, "src", null, 1, "out", EdgePlan.Partitioning.REBALANCE, List.of())));
    return TestAttempts.start(plan, InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory()))
        .withConnectors(connectors));
  }

  private static final class Empty implements SourceConnector {
    /** How long each read waits for its (absent) system before it returns nothing. */
    private final long pollNanos;

    Empty() {
      this(0);
    }

    Empty(long pollNanos) {
      this.pollNanos = pollNanos;
    }

    @Override
    public List<? extends SourceSplit> splits(int parallelism) {
      return List.of(() -> "empty");
    }

    @Override
    public SplitReader open(SourceSplit split) {
      return new SplitReader() {
        @Override
        public int read(SplitOutput out, int max) {
          if (pollNanos > 0) {
            LockSupport.parkNanos(pollNanos); // as a Kafka consumer's poll waits for the broker
          }
          return 0;
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public boolean bounded() {
      return false;
    }
  }
}
