package io.tributary.scheduler.checkpoint;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.TaskState;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes a savepoint self-contained: copies every object the state its tasks wrote
 * references into the savepoint's directory {@code <job>/savepoints/sp-<n>/}:
 *
 * <pre>
 * _metadata                         written afterwards by {@link CheckpointStore#writeMetadata}
 * state/{operator}/...              keyed state, laid out by its backend ({@link StateBackendFactory#copyTo})
 * timers/{operator}-{subtask}       timer objects
 * </pre>
 *
 * Split positions, watermarks and sink committables are part of the metadata itself. Nothing is
 * shared with checkpoints, so the directory can be copied, moved or deleted on its own.
 */
final class SavepointCopier {
  private final CheckpointStore store;
  private final Map<String, StateBackendFactory> backends;

  SavepointCopier(CheckpointStore store, Map<String, StateBackendFactory> backends) {
    this.store = store;
    this.backends = backends;
  }

  /**
   * The savepoint {@code taken} with its objects copied into its directory.
   *
   * @throws RuntimeException if a copy fails (what was copied is deleted again, best effort)
   */
  CheckpointMetadata copy(CheckpointMetadata taken) {
    String dir = store.savepointDirectory(taken.id());
    try {
      List<TaskState> tasks = new ArrayList<>();
      for (TaskState t : taken.tasks()) {
        Map<String, OperatorState> ops = new LinkedHashMap<>();
        t.operators().forEach((op, s) -> ops.put(op, copy(taken.job(), op, t.subtask(), s, dir)));
        tasks.add(new TaskState(t.stage(), t.subtask(), t.parallelism(), t.lastCheckpoint(), t.finished(),
            t.alignmentNanos(), t.syncNanos(), t.splits(), ops));
      }
      return new CheckpointMetadata(taken.job(), taken.id(), taken.kind(), taken.epoch(), taken.maxParallelism(),
          taken.createdAtMillis(), tasks, taken.stateLayouts());
    } catch (RuntimeException e) {
      deleteQuietly(dir);
      throw new IllegalStateException("cannot copy the state of savepoint " + taken.id() + " into " + dir + ": "
          + e.getMessage(), e);
    }
  }

  private OperatorState copy(String job, String op, int subtask, OperatorState s, String dir) {
    StateSnapshot keyed = s.keyed();
    if (keyed != null) {
      StateBackendFactory backend = backends.get(keyed.backend());
      if (backend == null) {
        throw new IllegalStateException("no '" + keyed.backend() + "' state backend to copy the state of " + op);
      }
      keyed = backend.copyTo(job, op, keyed, dir);
    }
    String timers = s.timers();
    if (timers != null) {
      String target = dir + "/timers/" + op + "-" + subtask;
      try {
        store.objects().copy(timers, target);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot copy timers " + timers + ": " + e.getMessage(), e);
      }
      timers = target;
    }
    io.tributary.checkpoint.InFlightState inFlight = s.inFlight();
    if (inFlight != null) {
      // one object per task, named by each chain head it fed: copying it again writes the same bytes
      String target = dir + "/in-flight/" + inFlight.object().substring(inFlight.object().lastIndexOf('/') + 1);
      try {
        store.objects().copy(inFlight.object(), target);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot copy in-flight records " + inFlight.object() + ": " + e.getMessage(), e);
      }
      inFlight = new io.tributary.checkpoint.InFlightState(target, inFlight.subtask(), inFlight.records(),
          inFlight.bytes());
    }
    return new OperatorState(s.watermark(), keyed, timers, s.committable(), inFlight);
  }

  private void deleteQuietly(String dir) {
    try {
      store.deleteObjects(store.objects().list(dir + "/"));
    } catch (IOException | RuntimeException e) {
      // leftovers without metadata restore nothing and are referenced by nothing
    }
  }
}
