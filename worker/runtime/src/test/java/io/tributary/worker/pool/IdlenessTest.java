package io.tributary.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EventTimePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Contract C3: a split that sends nothing stops holding back the watermark after idleTimeout. */
class IdlenessTest {
  private static final Schema SCHEMA = Schema.of("k", "ts");

  /** Split "live" produces records every 10 ms of event time forever; split "silent" never does. */
  private static final class TwoSplits implements SourceConnector {
    @Override
    public List<? extends SourceSplit> splits(int parallelism) {
      return List.of(() -> "live", () -> "silent");
    }

    @Override
    public SplitReader open(SourceSplit split) {
      boolean live = split.id().equals("live");
      return new SplitReader() {
        long next;

        @Override
        public int read(SplitOutput out, int max) {
          if (!live) {
            return 0;
          }
          int n = Math.min(max, 64);
          for (int i = 0; i < n; i++) {
            out.record(new Record(SCHEMA, new Object[] {"a", next * 10}, Record.NO_TIMESTAMP));
            next++;
          }
          return n;
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

  @Test
  void anIdleSplitDoesNotHoldBackWindows() throws Exception {
    ExecutionPlan plan = new ExecutionPlan("idleness", 128, "heap", List.of(
        new StagePlan(0, "src", 1, List.of(new SourcePlan("src", "test-two-splits", "json",
            new EventTimePlan("ts", 0, 50), 0, null, Map.of())), List.of()),
        new StagePlan(1, "count -> out", 1, List.of(
            new WindowAggregatePlan("count", List.of("k"), WindowPlan.tumbling(1000), 0, null,
                List.of(new AggregatePlan("n", AggregatePlan.Function.COUNT, null))),
            new SinkPlan("out", "test-collect", "json", Map.of())),
            List.of(new ChainLink("count", null, "out")))),
        List.of(new EdgePlan(0, "src", null, 1, "count", EdgePlan.Partitioning.HASH, List.of("k"))));
    List<Record> results = TestConnectors.newCollection();
    TestConnectors connectors = new TestConnectors().source("test-two-splits", new TwoSplits())
        .collect("test-collect", results);

    try (LocalAttempt job = TestAttempts.start(plan, InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory()))
        .withConnectors(connectors))) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (results.size() < 5 && System.nanoTime() < deadline && !job.isDone()) {
        job.await(20, TimeUnit.MILLISECONDS);
      }
      assertThat(results).as("windows fire although split 'silent' never sent anything").hasSizeGreaterThanOrEqualTo(5);
      for (Record r : results.subList(0, 5)) {
        assertThat(r.get("n")).isEqualTo(100L);
      }
    }
  }
}
