package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.checkpoint.CheckpointAcks;
import io.tributary.checkpoint.InFlightState;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.plan.TransformPlan;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.TaskRestore;
import io.tributary.state.KeyGroups;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.stream.KeySelector;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.operator.Output;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Records logged at an unaligned checkpoint taken at one parallelism are replayed at another: each
 * exactly once, by the subtask owning its key group (hash exchanges) or by subtask
 * {@code i % parallelism} (others).
 */
class InFlightReplayTest {
  private static final int MAX_PARALLELISM = 128;
  private static final Schema SCHEMA = Schema.of("key", "n");
  private static final KeySelector KEY = new KeySelector(List.of("key"));
  private static final Checkpointing CHECKPOINTING = new Checkpointing(new NoAcks(), new InMemoryObjectStore(),
      Runnable::run, 1, true, true, Checkpointing.NO_TIMEOUT);

  @Test
  void everyLoggedRecordIsReplayedOnceAtAnyParallelism() throws Exception {
    // two old subtasks, each logging hash records into "keyed" and unkeyed ones into "joined" input 1
    List<OperatorState> keyed = new ArrayList<>();
    List<OperatorState> joined = new ArrayList<>();
    List<String> all = new ArrayList<>();
    for (int old = 0; old < 2; old++) {
      InFlightLog log = new InFlightLog();
      for (int i = 0; i < 200; i++) {
        Record r = record("k" + (i * 7 + old), old * 1000 + i);
        log.add("keyed", 0, KEY.keyOf(r).keyGroup(MAX_PARALLELISM), r);
        all.add("keyed/" + r.get("n"));
        if (i % 3 == 0) {
          log.add("joined", 1, -1, r);
          all.add("joined/" + r.get("n"));
        }
      }
      InFlightLog.Sealed sealed = log.seal();
      String name = Checkpointing.inFlightObject("job", 4, 1, old);
      CHECKPOINTING.store().put(name, sealed.bytes());
      keyed.add(new OperatorState(0, null, null, null, new InFlightState(name, old,
          sealed.recordsByHead().get("keyed"), sealed.bytes().length)));
      joined.add(new OperatorState(0, null, null, null, new InFlightState(name, old,
          sealed.recordsByHead().get("joined"), sealed.bytes().length)));
    }
    TaskRestore restore = new TaskRestore(4, "checkpoint", Map.of("keyed", keyed, "joined", joined), Map.of());

    for (int p : new int[] {1, 2, 3, 5}) {
      List<String> replayed = new ArrayList<>();
      for (int i = 0; i < p; i++) {
        TaskDeployment d = new TaskDeployment(1, i, "w", KeyGroups.rangeFor(MAX_PARALLELISM, p, i), List.of(),
            restore);
        List<ChainNode> heads = List.of(node("keyed"), node("joined"));
        for (GateInput.Replay r : InFlightReplay.of(d, p, heads, CHECKPOINTING)) {
          String head = r.head().plan.id();
          replayed.add(head + "/" + r.record().get("n"));
          if (head.equals("keyed")) {
            assertThat(d.keyGroups().contains(KEY.keyOf(r.record()).keyGroup(MAX_PARALLELISM))).isTrue();
            assertThat(r.input()).isZero();
          } else {
            assertThat(r.input()).isEqualTo(1);
            assertThat((long) r.record().get("n") / 1000 % p).as("unkeyed records go to old index % p").isEqualTo(i);
          }
        }
      }
      assertThat(replayed).as("parallelism %d", p).containsExactlyInAnyOrderElementsOf(all);
    }
  }

  @Test
  void aRestoreWithoutLogsReplaysNothing() {
    TaskRestore restore = new TaskRestore(4, "checkpoint",
        Map.of("keyed", List.of(new OperatorState(0, null, null, null))), Map.of());
    TaskDeployment d = new TaskDeployment(1, 0, "w", KeyGroups.rangeFor(MAX_PARALLELISM, 1, 0), List.of(), restore);
    assertThat(InFlightReplay.of(d, 1, List.of(node("keyed")), null)).isEmpty();
  }

  @Test
  void recordsInFlightToAnOperatorThatIsNoLongerAHeadFailTheRestore() {
    OperatorState logged = new OperatorState(0, null, null, null, new InFlightState("log", 0, 3, 100));
    OperatorState empty = new OperatorState(0, null, null, null, new InFlightState("log", 0, 0, 100));
    TaskRestore restore = new TaskRestore(4, "checkpoint", Map.of("global", List.of(logged), "other", List.of(empty)),
        Map.of());
    TaskDeployment d = new TaskDeployment(0, 0, "w", KeyGroups.rangeFor(MAX_PARALLELISM, 1, 0), List.of(), restore);
    ChainNode source = node("src");
    ChainNode global = node("global");
    ChainNode other = node("other");

    InFlightReplay.requireHeads(d, List.of(global), List.of(global, other));
    assertThatThrownBy(() -> InFlightReplay.requireHeads(d, List.of(source), List.of(source, global, other)))
        .isInstanceOf(RestoreException.class).hasMessageContaining("records in flight to 'global'")
        .hasMessageContaining("from a savepoint");
    InFlightReplay.requireHeads(new TaskDeployment(0, 0, "w", KeyGroups.rangeFor(MAX_PARALLELISM, 1, 0), List.of(),
        null), List.of(source), List.of(source, global));
  }

  private static ChainNode node(String id) {
    return new ChainNode(new TransformPlan(id, null, null, null), new Operator() {
      @Override
      public void processElement(Record record, Output out) {}
    });
  }

  private static Record record(String key, long n) {
    return new Record(SCHEMA, new Object[] {key, n}, Record.NO_TIMESTAMP);
  }

  private static final class NoAcks implements CheckpointAcks {
    @Override
    public void acknowledge(long checkpointId, TaskState state) {}

    @Override
    public void decline(long checkpointId, String task, Throwable reason) {}

    @Override
    public void finished(TaskState state) {}
  }
}
