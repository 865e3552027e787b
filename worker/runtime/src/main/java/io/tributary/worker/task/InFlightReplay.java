package io.tributary.worker.task;

import io.tributary.checkpoint.InFlightState;
import io.tributary.checkpoint.OperatorState;
import io.tributary.protocol.TaskDeployment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which records logged at an unaligned checkpoint a restored subtask replays: from the logs of every
 * earlier subtask of its stage, those of its chain heads that are its own now. A record that came
 * over a hash exchange belongs to the subtask owning its key group; any other to subtask
 * {@code i % parallelism}, {@code i} being the subtask that logged it. Each record is replayed by
 * exactly one subtask, whatever the parallelism.
 */
final class InFlightReplay {
  private InFlightReplay() {}

  /**
   * Fails the restore when the checkpoint holds records in flight to an operator of the stage that
   * is not one of its chain {@code heads} now: a plan that chains it into its input's task (a global
   * window at parallelism 1 once checkpoints are no longer unaligned) has no input to replay them
   * through, and dropping them would lose them.
   *
   * @throws RestoreException naming the operator
   */
  static void requireHeads(TaskDeployment task, List<ChainNode> heads, List<ChainNode> nodes) {
    if (task.restore() == null) {
      return;
    }
    for (ChainNode node : nodes) {
      if (heads.contains(node)) {
        continue;
      }
      for (OperatorState s : task.restore().operator(node.plan.id())) {
        if (s.inFlight() != null && s.inFlight().records() > 0) {
          throw new RestoreException("the checkpoint holds records in flight to '" + node.plan.id()
              + "', which this plan runs in its input's task, with nothing to replay them through; restore it "
              + "with unaligned checkpoints on, or from a savepoint");
        }
      }
    }
  }

  /**
   * The records task {@code task} of a stage now at {@code parallelism} replays, in the order each
   * earlier subtask logged them.
   *
   * @throws RestoreException when a log cannot be read
   */
  static List<GateInput.Replay> of(TaskDeployment task, int parallelism, List<ChainNode> heads,
      Checkpointing checkpointing) {
    Map<String, ChainNode> byId = new LinkedHashMap<>();
    heads.forEach(h -> byId.put(h.plan.id(), h));
    // one log per earlier subtask, named by the state of each head it fed
    Map<String, InFlightState> logs = new LinkedHashMap<>();
    for (String head : byId.keySet()) {
      for (OperatorState s : task.restore().operator(head)) {
        if (s.inFlight() != null) {
          logs.putIfAbsent(s.inFlight().object(), s.inFlight());
        }
      }
    }
    List<GateInput.Replay> out = new ArrayList<>();
    if (logs.isEmpty()) {
      return out;
    }
    if (checkpointing == null) {
      throw new RestoreException("the checkpoint holds in-flight records, but this attempt does not checkpoint");
    }
    for (InFlightState log : logs.values()) {
      byte[] bytes;
      try {
        bytes = checkpointing.store().getBytes(log.object());
      } catch (IOException e) {
        throw new RestoreException("cannot read in-flight records '" + log.object() + "': " + e);
      }
      boolean mineByIndex = log.subtask() % parallelism == task.subtask();
      InFlightLog.read(log.object(), bytes, e -> {
        ChainNode head = byId.get(e.head());
        boolean mine = e.keyGroup() >= 0 ? task.keyGroups().contains(e.keyGroup()) : mineByIndex;
        if (head != null && mine) {
          out.add(new GateInput.Replay(head, e.input(), e.record()));
        }
      });
    }
    return out;
  }
}
