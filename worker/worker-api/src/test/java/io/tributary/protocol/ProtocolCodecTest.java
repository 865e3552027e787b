package io.tributary.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.SplitState;
import io.tributary.checkpoint.TaskState;
import io.tributary.plan.AggregatePlan;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.EventTimePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.plan.WindowPlan;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.StateSnapshot;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every message of the worker protocol survives the trip through its JSON form unchanged. */
class ProtocolCodecTest {
  private static final AttemptId ATTEMPT = new AttemptId("default--bids", 7);

  private static final ExecutionPlan PLAN = new ExecutionPlan("default--bids", 128, "forst", List.of(
      new StagePlan(0, "bids -> cheap", 2, List.of(
          new SourcePlan("bids", "nexmark", "json", new EventTimePlan("dateTime", 4000, 30000), 1000.5, "bad",
              Map.of("events", 20000L, "kind", "bid", "nested", Map.of("a", List.of(1L, "x")))),
          new TransformPlan("cheap", "price < 100", Map.of("auction", "auction", "price", "price * 2"))),
          List.of(new ChainLink("bids", null, "cheap"))),
      new StagePlan(1, "per-auction -> out", 3, List.of(
          new WindowAggregatePlan("per-auction", List.of("auction"), WindowPlan.sliding(10000, 2000), 5000, "late",
              List.of(new AggregatePlan("n", AggregatePlan.Function.COUNT, null),
                  new AggregatePlan("top", AggregatePlan.Function.MAX, "price"))),
          new SinkPlan("out", "kafka", "json", Map.of("topic", "t", "delivery", "exactly-once"))),
          List.of(new ChainLink("per-auction", null, "out")))),
      List.of(new EdgePlan(0, "cheap", null, 1, "per-auction", EdgePlan.Partitioning.HASH, List.of("auction"))));

  private static final TaskState STATE = new TaskState(1, 2, 3, 41, false, 1200, 3400,
      List.of(new SplitState("bids-0", "1234", 99, 95, 3, false)),
      Map.of("per-auction", new OperatorState(95, new StateSnapshot("forst", 41, new KeyGroupRange(86, 128),
          Map.of(86, "default--bids/state/per-auction/kg-86.json"), 2048, 512), "default--bids/timers/x", null,
          new io.tributary.checkpoint.InFlightState("bids/checkpoints/chk-41/in-flight/1-2", 2, 310, 9000)),
          "out", new OperatorState(95, null, null, "{\"txn\":\"a\"}")));

  @Test
  void anAttemptDeploymentRoundTrips() throws IOException {
    TaskRestore restore = new TaskRestore(41, "savepoint", Map.of("per-auction", List.of(STATE.operators().get(
        "per-auction"))), Map.of("bids-0", STATE.splits().get(0)));
    AttemptDeployment d = new AttemptDeployment(ATTEMPT, PLAN,
        new AttemptDeployment.CheckpointSettings(true, true, 10_000),
        List.of(new SinkRecovery("out", List.of("c1", "c2"), 3)), List.of(
            new TaskDeployment(0, 0, "worker-1", new KeyGroupRange(0, 64), List.of("bids-0", "bids-2"), restore),
            new TaskDeployment(1, 2, "worker-2", new KeyGroupRange(86, 128), List.of(), null)));

    ControlMessage back = roundTrip(new ControlMessage.Deploy(d), ControlMessage.class);

    assertThat(back).isEqualTo(new ControlMessage.Deploy(d));
    assertThat(((ControlMessage.Deploy) back).deployment().plan().stage(0).operators().get(0))
        .isInstanceOf(SourcePlan.class);
  }

  @Test
  void everyControlMessageRoundTrips() throws IOException {
    for (ControlMessage m : List.of(new ControlMessage.TriggerCheckpoint(ATTEMPT, 42),
        new ControlMessage.TriggerCheckpoint(ATTEMPT, 43, true),
        new ControlMessage.CheckpointComplete(ATTEMPT, 42, Map.of("out", List.of("a", "b"))),
        new ControlMessage.Cancel(ATTEMPT), new ControlMessage.Release(ATTEMPT))) {
      assertThat(roundTrip(m, ControlMessage.class)).isEqualTo(m);
    }
  }

  @Test
  void everyWorkerReportRoundTrips() throws IOException {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("auction", 1001L);
    fields.put("price", 12.5);
    fields.put("name", "x");
    fields.put("none", null);
    for (WorkerReport r : List.of(new WorkerReport.CheckpointAck(ATTEMPT, 41, STATE),
        new WorkerReport.CheckpointDeclined(ATTEMPT, 41, "per-auction (3/3)", "disk full"),
        new WorkerReport.FinalState(ATTEMPT, STATE),
        new WorkerReport.TaskEnded(ATTEMPT, "1/2", "per-auction (3/3)", WorkerReport.TaskEnded.Outcome.FAILED,
            new Failure(Failure.Domain.EXTERNAL, true, "task per-auction (3/3) failed: connection reset")),
        new WorkerReport.TaskEnded(ATTEMPT, "1/2", "per-auction (3/3)", WorkerReport.TaskEnded.Outcome.FINISHED, null),
        new WorkerReport.Metrics(ATTEMPT, "worker-1", List.of(new TaskMetrics(123456789L, "1/2", "per-auction (3/3)",
            1, 2, false, 100, 90, 95, true, false, 5000, 3000, 1000,
            List.of(new TaskMetrics.OperatorCounters("per-auction", 100, 90, 95, 1, 2))))),
        new WorkerReport.Output(ATTEMPT, "out", 2, List.of(new SampledRecord(3, 1700000000000L, 99L, fields),
            new SampledRecord(4, 1700000000001L, null, Map.of()))))) {
      assertThat(roundTrip(r, WorkerReport.class)).as(r.getClass().getSimpleName()).isEqualTo(r);
    }
  }

  @Test
  void somethingElseIsRefused() {
    assertThatThrownBy(() -> ProtocolCodec.decode("{\"type\":\"nonsense\"}".getBytes(), WorkerReport.class))
        .isInstanceOf(IOException.class);
  }

  private static <T> T roundTrip(T message, Class<T> type) throws IOException {
    return ProtocolCodec.decode(ProtocolCodec.encode(message), type);
  }
}
