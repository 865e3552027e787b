package io.tributary.worker.pool;

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
import io.tributary.protocol.AttemptDeployment;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.stream.Record;
import io.tributary.worker.net.DataTokens;
import io.tributary.worker.net.NetTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An attempt whose tasks are spread over two workers (two data planes over loopback TCP, in one
 * JVM) computes exactly what the same attempt computes on one worker.
 */
@Timeout(60)
class SplitAttemptTest {
  private static final DataTokens TOKENS = new DataTokens("split-attempt-test");

  /** datagen (p=2) -> [pass] -> hash by key -> [count per key and 1 s window -> sink] (p=3). */
  private static ExecutionPlan plan() {
    return new ExecutionPlan("split", 128, "heap", List.of(
        new StagePlan(0, "gen -> pass", 2, List.of(
            new SourcePlan("gen", "datagen", "json", new io.tributary.plan.EventTimePlan("ts", 0, 0), 0, null,
                Map.of("count", 30_000L, "keys", 40, "interval", "1ms", "startTime", 0L)),
            new TransformPlan("pass", null, null)), List.of(new ChainLink("gen", null, "pass"))),
        new StagePlan(1, "per-key -> out", 3, List.of(
            new WindowAggregatePlan("per-key", List.of("key"), WindowPlan.tumbling(1000), 0, null,
                List.of(new AggregatePlan("n", AggregatePlan.Function.COUNT, null))),
            new SinkPlan("out", "test-collect", "json", Map.of())), List.of(new ChainLink("per-key", null, "out")))),
        List.of(new EdgePlan(0, "pass", null, 1, "per-key", EdgePlan.Partitioning.HASH, List.of("key"))));
  }

  @Test
  void twoWorkersComputeWhatOneDoes() throws Exception {
    List<String> alone = run(false);
    List<String> split = run(true);

    assertThat(alone).as("the job produces windows").hasSizeGreaterThan(100);
    assertThat(split).containsExactlyElementsOf(alone);
  }

  private List<String> run(boolean split) throws Exception {
    List<Record> out = TestConnectors.newCollection();
    InProcessWorkerPool.Options options = InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory()))
        .withConnectors(new TestConnectors().collect("test-collect", out)).withCredits(2);
    if (!split) {
      LocalAttempt a = TestAttempts.start(plan(), options);
      assertThat(a.await(30, TimeUnit.SECONDS)).isTrue();
      a.close();
    } else {
      try (NetTransport wa = new NetTransport("a", "127.0.0.1", 0, "127.0.0.1", TOKENS);
          NetTransport wb = new NetTransport("b", "127.0.0.1", 0, "127.0.0.1", TOKENS)) {
        // the sources and the first window subtask on a, the other window subtasks on b
        AttemptDeployment d = TestAttempts.deployment(plan(), options,
            (stage, subtask) -> stage == 0 || subtask == 0 ? "a" : "b");
        d = d.withNetwork(new AttemptDeployment.Network(TOKENS.issue(d.attempt()),
            Map.of("a", wa.address(), "b", wb.address())));
        LocalAttempt onB = LocalAttempt.start(d, "b", options, wb, r -> {});
        LocalAttempt onA = LocalAttempt.start(d, "a", options, wa, r -> {});
        assertThat(onA.tasks()).hasSize(3);
        assertThat(onB.tasks()).hasSize(2);
        assertThat(onA.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(onB.await(30, TimeUnit.SECONDS)).isTrue();
        onA.close();
        onB.close();
      }
    }
    List<String> lines = new ArrayList<>();
    for (Record r : out) {
      lines.add(r.asMap().toString());
    }
    lines.sort(null);
    return lines;
  }
}
