package io.tributary.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.OperatorState;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.WorkerReport;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.Record;
import io.tributary.worker.net.DataTokens;
import io.tributary.worker.net.NetTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unaligned checkpoints between two workers (priority barriers over loopback TCP): under
 * backpressure the receiving tasks on the other worker acknowledge checkpoints holding records in
 * flight over their remote channels, and the job's output is what it is without checkpoints.
 */
@Timeout(60)
class UnalignedSplitAttemptTest {
  private static final DataTokens TOKENS = new DataTokens("unaligned-split-attempt-test");

  /** datagen (p=2, on a) -> pass -> hash by key -> [by-key -> out], a sink of 20 µs a record (p=2, on b). */
  private static ExecutionPlan plan() {
    return new ExecutionPlan("unaligned-split", 128, "heap", List.of(
        new StagePlan(0, "gen -> pass", 2, List.of(
            new SourcePlan("gen", "datagen", "json", null, 0, null, Map.of("count", 20_000L, "keys", 40)),
            new TransformPlan("pass", null, null)), List.of(new ChainLink("gen", null, "pass"))),
        new StagePlan(1, "by-key -> out", 2, List.of(
            new TransformPlan("by-key", null, null),
            new SinkPlan("out", "test-collect", "json", Map.of())), List.of(new ChainLink("by-key", null, "out")))),
        List.of(new EdgePlan(0, "pass", null, 1, "by-key", EdgePlan.Partitioning.HASH, List.of("key"))));
  }

  @Test
  void remoteChannelsCarryPriorityBarriersAndTheirRecordsInFlightAreLogged() throws Exception {
    List<String> expected = lines(runAlone());

    List<Record> out = TestConnectors.newCollection();
    InProcessWorkerPool.Options options = InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory()))
        .withConnectors(new TestConnectors().sink("test-collect", r -> {
          LockSupport.parkNanos(20_000);
          out.add(r);
        })).withCredits(2).withCheckpointStore(new InMemoryObjectStore());
    TestAttempts.Collected reports = new TestAttempts.Collected();
    try (NetTransport wa = new NetTransport("a", "127.0.0.1", 0, "127.0.0.1", TOKENS);
        NetTransport wb = new NetTransport("b", "127.0.0.1", 0, "127.0.0.1", TOKENS)) {
      AttemptDeployment d = TestAttempts.deployment(plan(), options, (stage, subtask) -> stage == 0 ? "a" : "b");
      d = new AttemptDeployment(d.attempt(), d.plan(), new AttemptDeployment.CheckpointSettings(true, true, 0),
          List.of(), d.tasks(), new AttemptDeployment.Network(TOKENS.issue(d.attempt()),
              Map.of("a", wa.address(), "b", wb.address())));
      LocalAttempt onB = LocalAttempt.start(d, "b", options, wb, reports);
      LocalAttempt onA = LocalAttempt.start(d, "a", options, wa, reports);
      // as a coordinator does: one checkpoint at a time, until b's tasks acknowledged records in
      // flight or the job ended
      long id = 0;
      while (!onB.isDone() && inFlightOnB(reports) == 0) {
        onA.trigger(++id);
        long triggered = id;
        while (!onB.isDone() && acks(reports, triggered) < 4) {
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
      }
      assertThat(onA.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(onB.await(30, TimeUnit.SECONDS)).isTrue();
      onA.close();
      onB.close();
    }
    assertThat(inFlightOnB(reports)).as("records in flight over the remote channels").isPositive();
    assertThat(reports.reports.stream().filter(r -> r instanceof WorkerReport.CheckpointDeclined).toList()).isEmpty();
    assertThat(lines(out)).containsExactlyElementsOf(expected);
  }

  private static long acks(TestAttempts.Collected reports, long checkpointId) {
    return reports.reports.stream()
        .filter(r -> r instanceof WorkerReport.CheckpointAck ack && ack.checkpointId() == checkpointId).count();
  }

  private static long inFlightOnB(TestAttempts.Collected reports) {
    long n = 0;
    for (WorkerReport r : reports.reports) {
      if (r instanceof WorkerReport.CheckpointAck ack && ack.state().stage() == 1) {
        for (OperatorState o : ack.state().operators().values()) {
          n += o.inFlight() == null ? 0 : o.inFlight().records();
        }
      }
    }
    return n;
  }

  private static List<Record> runAlone() throws InterruptedException {
    List<Record> out = TestConnectors.newCollection();
    InProcessWorkerPool.Options options = InProcessWorkerPool.Options.of(Map.of("heap", new HeapStateBackendFactory()))
        .withConnectors(new TestConnectors().collect("test-collect", out));
    LocalAttempt a = TestAttempts.start(plan(), options);
    assertThat(a.await(30, TimeUnit.SECONDS)).isTrue();
    a.close();
    return out;
  }

  private static List<String> lines(List<Record> records) {
    List<String> lines = new ArrayList<>();
    for (Record r : records) {
      lines.add(r.asMap().toString());
    }
    lines.sort(null);
    assertThat(lines).hasSize(20_000);
    return lines;
  }
}
