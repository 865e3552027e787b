package io.tributary.scheduler.checkpoint;

import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.util.Collection;
import java.util.Set;

/**
 * The figures of one completed checkpoint or savepoint, from the task states it is made of.
 *
 * <p>A task that finished stands in every later checkpoint with its final state; what it wrote for
 * that state counts once, in the first checkpoint it stands in ({@code counted} remembers which
 * final states were counted), and its alignment and snapshot times not at all.
 *
 * @param stateBytes size of the keyed state it references
 * @param incrementalBytes keyed state written new for it (state files, change-log segments: C6)
 * @param timerBytes size of the timer objects written for it
 * @param maxAlignmentNanos the longest any task's barrier waited for its slowest input channel
 * @param maxSyncNanos the longest snapshot time on a task thread
 * @param parallelism the largest parallelism of its tasks
 * @param inFlightRecords records in flight its tasks stored (unaligned checkpoints)
 * @param inFlightBytes size of the objects holding them
 * @param operatorStateBytes per operator id, the size of its keyed state over its tasks (operators
 *     with keyed state only)
 * @param stageAckMillis per stage id, the longest time from the trigger to one of its tasks'
 *     acknowledgement (stages with acknowledged tasks only)
 */
record CheckpointFigures(long stateBytes, long incrementalBytes, long timerBytes, long maxAlignmentNanos,
    long maxSyncNanos, int parallelism, long inFlightRecords, long inFlightBytes,
    java.util.Map<String, Long> operatorStateBytes, java.util.Map<Integer, Long> stageAckMillis) {
  CheckpointFigures {
    operatorStateBytes = java.util.Map.copyOf(operatorStateBytes);
    stageAckMillis = java.util.Map.copyOf(stageAckMillis);
  }

  /**
   * The figures of a checkpoint of {@code states}; timer objects' sizes are read from {@code
   * objects} (an object that cannot be read counts 0: figures never fail a checkpoint).
   *
   * @param ackNanos per task id, nanoseconds from the trigger to its acknowledgement (tasks that
   *     finished before it have none)
   * @param counted ids of final task states already counted by an earlier checkpoint; the final
   *     states counted now are added to it
   */
  static CheckpointFigures of(Collection<TaskState> states, java.util.Map<String, Long> ackNanos, Set<String> counted,
      ObjectStore objects) {
    long state = 0;
    long incremental = 0;
    long timers = 0;
    long alignment = 0;
    long sync = 0;
    int parallelism = 0;
    long inFlightRecords = 0;
    java.util.Map<String, Long> inFlightObjects = new java.util.HashMap<>();
    java.util.Map<String, Long> perOperator = new java.util.HashMap<>();
    java.util.Map<Integer, Long> perStage = new java.util.HashMap<>();
    for (TaskState t : states) {
      Long acked = ackNanos.get(t.taskId());
      if (acked != null) {
        perStage.merge(t.stage(), java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(acked), Math::max);
      }
      parallelism = Math.max(parallelism, t.parallelism());
      boolean writtenNow = !t.finished() || counted.add(t.taskId());
      if (!t.finished()) {
        alignment = Math.max(alignment, t.alignmentNanos());
        sync = Math.max(sync, t.syncNanos());
      }
      for (java.util.Map.Entry<String, OperatorState> e : t.operators().entrySet()) {
        OperatorState o = e.getValue();
        if (o.keyed() != null) {
          state += o.keyed().stateBytes();
          perOperator.merge(e.getKey(), o.keyed().stateBytes(), Long::sum);
          incremental += writtenNow ? o.keyed().uploadedBytes() : 0;
        }
        if (o.timers() != null && writtenNow) {
          timers += size(objects, o.timers());
        }
        if (o.inFlight() != null && writtenNow) {
          inFlightRecords += o.inFlight().records();
          inFlightObjects.put(o.inFlight().object(), o.inFlight().bytes()); // one per task, named by each head
        }
      }
    }
    return new CheckpointFigures(state, incremental, timers, alignment, sync, parallelism, inFlightRecords,
        inFlightObjects.values().stream().mapToLong(Long::longValue).sum(), perOperator, perStage);
  }

  /**
   * What its entry records ({@link CheckpointStore.Summary}); its completion time is its trigger
   * time plus its duration (measured on the monotonic clock), so the three always agree.
   */
  CheckpointStore.Summary summary(String trigger, long triggeredAtMillis, long durationMillis, long metadataBytes) {
    return new CheckpointStore.Summary(trigger, stateBytes, durationMillis, parallelism,
        triggeredAtMillis + durationMillis,
        triggeredAtMillis, maxAlignmentNanos, incrementalBytes,
        incrementalBytes + timerBytes + inFlightBytes + metadataBytes, inFlightRecords, inFlightBytes);
  }

  private static long size(ObjectStore objects, String name) {
    try {
      return objects.size(name);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
