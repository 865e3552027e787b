package io.tributary.worker.task;

import io.tributary.checkpoint.InFlightState;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.SplitState;
import io.tributary.checkpoint.TaskState;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Takes one task's part of a checkpoint. The synchronous part runs on the task thread when the
 * barrier passes (split positions, timer bytes, the state backend's local snapshot, sink
 * pre-commits); uploads finish in the background, and the task's state is acknowledged once they
 * are durable, while the task goes on processing.
 */
final class TaskCheckpointer {
  private final Checkpointing config;
  private final String jobName;
  private final int stage;
  private final int subtask;
  private final int parallelism;
  private long lastCheckpoint = -1;

  TaskCheckpointer(Checkpointing config, String jobName, int stage, int subtask, int parallelism) {
    this.config = config;
    this.jobName = jobName;
    this.stage = stage;
    this.subtask = subtask;
    this.parallelism = parallelism;
  }

  /** Task thread, when barrier {@code checkpointId} passes the task (before it goes downstream). */
  void snapshot(long checkpointId, StreamTask task, long alignmentNanos) {
    snapshot(checkpointId, task, alignmentNanos, null);
  }

  /** Whether a barrier this task emits goes with priority from the start (unaligned checkpoints without timeout). */
  boolean priorityBarriers() {
    return config.unalignedFromStart();
  }

  /**
   * Like {@link #snapshot(long, StreamTask, long)} for an unaligned checkpoint: the task's part is
   * acknowledged only once {@code inFlight}, the records that were in flight before the barrier,
   * is complete and written to the store; its chain heads' states name it.
   *
   * @param inFlight completed by the input when the barrier came on every channel; null for an
   *     aligned checkpoint
   */
  void snapshot(long checkpointId, StreamTask task, long alignmentNanos,
      CompletableFuture<InFlightLog.Sealed> inFlight) {
    long start = System.nanoTime();
    lastCheckpoint = checkpointId;
    List<SplitState> splits = task.splitStates();
    Map<String, CompletableFuture<OperatorState>> parts = new LinkedHashMap<>();
    try {
      for (ChainNode n : task.nodes()) {
        parts.put(n.plan.id(), snapshotOperator(checkpointId, n));
      }
    } catch (RuntimeException e) {
      for (ChainNode n : task.nodes()) {
        n.keyedAt = null; // the state matches no snapshot: never kept open for another attempt
      }
      config.acks().decline(checkpointId, task.name(), e);
      return;
    }
    long syncNanos = System.nanoTime() - start;
    CompletableFuture<Map<String, InFlightState>> logged = inFlight == null
        ? CompletableFuture.completedFuture(Map.of())
        : inFlight.thenApplyAsync(sealed -> writeInFlight(checkpointId, sealed), config.uploads());
    CompletableFuture<?>[] all = parts.values().toArray(new CompletableFuture<?>[parts.size() + 1]);
    all[parts.size()] = logged;
    CompletableFuture.allOf(all).whenComplete((v, error) -> {
      if (error != null) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
            ? error.getCause() : error;
        config.acks().decline(checkpointId, task.name(), cause);
        if (failsTask(cause)) {
          // out of memory (or worse) in the background part: declining every checkpoint from now on would
          // hide it; the task fails instead, and the job restarts from its latest checkpoint
          task.mailbox().send(() -> {
            throw new IllegalStateException("checkpoint " + checkpointId + " of " + task.name() + " failed: " + cause,
                cause);
          });
        }
        return;
      }
      Map<String, OperatorState> ops = new LinkedHashMap<>();
      Map<String, InFlightState> records = logged.join();
      parts.forEach((id, f) -> {
        OperatorState state = f.join();
        ops.put(id, records.containsKey(id) ? state.withInFlight(records.get(id)) : state);
      });
      config.acks().acknowledge(checkpointId,
          new TaskState(stage, subtask, parallelism, checkpointId, false, alignmentNanos, syncNanos, splits, ops));
    });
  }

  /** Writes the in-flight records of a checkpoint (upload thread); per chain head, what its state names. */
  private Map<String, InFlightState> writeInFlight(long checkpointId, InFlightLog.Sealed sealed) {
    if (sealed.records() == 0) {
      return Map.of();
    }
    String name = Checkpointing.inFlightObject(jobName, checkpointId, stage, subtask);
    try {
      config.store().put(name, sealed.bytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write in-flight records to " + name, e);
    }
    Map<String, InFlightState> out = new LinkedHashMap<>();
    sealed.recordsByHead().forEach((head, n) -> out.put(head, new InFlightState(name, subtask, n,
        sealed.bytes().length)));
    return out;
  }

  /**
   * Whether a failure of a checkpoint's background part must fail the task rather than only decline
   * the checkpoint: the JVM's own errors (out of memory, stack overflow), which would strike again.
   */
  static boolean failsTask(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof VirtualMachineError) {
        return true;
      }
    }
    return false;
  }

  private CompletableFuture<OperatorState> snapshotOperator(long checkpointId, ChainNode n) {
    long watermark = n.watermark;
    KeyedStateBackend state = n.keyedState();
    if (state != null) {
      CompletableFuture<StateSnapshot> keyed = state.snapshot(checkpointId);
      n.keyedAt = keyed;
      String timers = null;
      CompletableFuture<String> timersWritten = CompletableFuture.completedFuture(null);
      if (n.timers != null) {
        // only the timer references are copied on the task thread; they are serialized with the upload
        java.util.function.Supplier<byte[]> bytes = n.timers.snapshotLater(n.timerNamespaces);
        timers = Checkpointing.timersObject(jobName, checkpointId, n.plan.id(), subtask);
        String name = timers;
        timersWritten = CompletableFuture.supplyAsync(() -> {
          try {
            config.store().put(name, bytes.get());
            return name;
          } catch (IOException e) {
            throw new UncheckedIOException("cannot write timers to " + name, e);
          }
        }, config.uploads());
      }
      return keyed.thenCombine(timersWritten, (k, t) -> new OperatorState(watermark, k, t, null));
    }
    String committable = n.operator instanceof SinkOperator sink ? sink.preCommit(checkpointId) : null;
    return CompletableFuture.completedFuture(new OperatorState(watermark, null, null, committable));
  }

  /**
   * Task thread, after the task finished: its final state, which stands for it in every later
   * checkpoint (everything it produced has been sent; sinks pre-committed their last output).
   */
  void finished(StreamTask task) {
    Map<String, OperatorState> ops = new LinkedHashMap<>();
    for (ChainNode n : task.nodes()) {
      String committable = n.operator instanceof SinkOperator sink ? sink.finalCommittable() : null;
      ops.put(n.plan.id(), new OperatorState(Long.MAX_VALUE, null, null, committable));
    }
    List<SplitState> splits = task.splitStates();
    config.acks().finished(new TaskState(stage, subtask, parallelism, lastCheckpoint, true, 0, 0, splits, ops));
  }
}
