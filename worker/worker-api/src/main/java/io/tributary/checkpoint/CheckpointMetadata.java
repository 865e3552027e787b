package io.tributary.checkpoint;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.tributary.plan.StateLayouts.StateLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A completed checkpoint or savepoint: what every task contributed. Written once, as an immutable
 * object, before the job's latest-checkpoint pointer names it (contract C9).
 *
 * @param job the job's name
 * @param id the checkpoint id, growing across the job's runs
 * @param kind {@code checkpoint} or {@code savepoint}
 * @param epoch the coordinator epoch that wrote it
 * @param maxParallelism the job's number of key groups; state cannot be restored under another
 * @param createdAtMillis wall-clock completion time
 * @param tasks every task's state
 * @param stateLayouts per operator id, the layout of its keyed state ({@link
 *     io.tributary.plan.StateLayouts}); empty in checkpoints written before layouts were recorded
 *     (then left out of the JSON)
 */
public record CheckpointMetadata(String job, long id, String kind, long epoch, int maxParallelism,
    long createdAtMillis, List<TaskState> tasks,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, StateLayout> stateLayouts) {
  public static final String CHECKPOINT = "checkpoint";
  public static final String SAVEPOINT = "savepoint";

  public CheckpointMetadata {
    tasks = List.copyOf(tasks);
    stateLayouts = stateLayouts == null ? Map.of() : Map.copyOf(stateLayouts);
  }

  /**
   * Why its keyed state cannot be restored into {@code plan}: written by another state backend than
   * the plan's (a backend cannot read another's snapshots), or an operator whose layout changed or
   * that the plan no longer has ({@link io.tributary.plan.StateLayouts}); null when it can.
   */
  public String restoreMismatch(io.tributary.plan.ExecutionPlan plan) {
    for (TaskState t : tasks) {
      for (OperatorState o : t.operators().values()) {
        if (o.keyed() != null && !o.keyed().backend().equals(plan.stateBackend())) {
          return "its state was written by the '" + o.keyed().backend() + "' state backend, and the job now uses '"
              + plan.stateBackend() + "'; a backend cannot read another's snapshots, so state.backend must stay";
        }
      }
    }
    return io.tributary.plan.StateLayouts.mismatch(stateLayouts, plan);
  }

  /**
   * The operators whose state this metadata holds (keyed state, timers or a recorded layout) but
   * that {@code plan} does not have, by id in order: what a restore into {@code plan} without them
   * ({@link #withOperatorsOf}) leaves behind.
   */
  public List<String> statefulOperatorsNotIn(io.tributary.plan.ExecutionPlan plan) {
    java.util.Set<String> ops = operatorIds(plan);
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (TaskState t : tasks) {
      t.operators().forEach((op, s) -> {
        if ((s.keyed() != null || s.timers() != null) && !ops.contains(op)) {
          out.add(op);
        }
      });
    }
    stateLayouts.keySet().stream().filter(op -> !ops.contains(op)).forEach(out::add);
    return List.copyOf(out);
  }

  /**
   * This metadata with only the state of the operators {@code plan} has: the others' keyed state,
   * timers, watermarks, pre-commits, in-flight records and layouts are left out (a restore that
   * allows state it does not restore; their sources' splits go with them). The rest as is.
   */
  public CheckpointMetadata withOperatorsOf(io.tributary.plan.ExecutionPlan plan) {
    java.util.Set<String> ops = operatorIds(plan);
    List<TaskState> kept = new ArrayList<>(tasks.size());
    for (TaskState t : tasks) {
      Map<String, OperatorState> mine = new TreeMap<>(t.operators());
      mine.keySet().retainAll(ops);
      kept.add(new TaskState(t.stage(), t.subtask(), t.parallelism(), t.lastCheckpoint(), t.finished(),
          t.alignmentNanos(), t.syncNanos(), t.splits(), mine));
    }
    Map<String, StateLayout> layouts = new TreeMap<>(stateLayouts);
    layouts.keySet().retainAll(ops);
    return new CheckpointMetadata(job, id, kind, epoch, maxParallelism, createdAtMillis, kept, layouts);
  }

  private static java.util.Set<String> operatorIds(io.tributary.plan.ExecutionPlan plan) {
    java.util.Set<String> ids = new java.util.HashSet<>();
    plan.stages().forEach(st -> st.operators().forEach(op -> ids.add(op.id())));
    return ids;
  }

  /** Metadata that records no state layouts. */
  public CheckpointMetadata(String job, long id, String kind, long epoch, int maxParallelism, long createdAtMillis,
      List<TaskState> tasks) {
    this(job, id, kind, epoch, maxParallelism, createdAtMillis, tasks, Map.of());
  }

  @JsonIgnore
  public boolean isSavepoint() {
    return SAVEPOINT.equals(kind);
  }

  /**
   * This metadata with every object name it references (keyed-state manifests, timer objects,
   * in-flight records)
   * replaced by {@code rename}; everything else (split positions, watermarks, committables) as is.
   */
  public CheckpointMetadata withObjectNames(java.util.function.UnaryOperator<String> rename) {
    List<TaskState> renamed = new ArrayList<>(tasks.size());
    for (TaskState t : tasks) {
      Map<String, OperatorState> ops = new TreeMap<>();
      t.operators().forEach((op, s) -> {
        io.tributary.state.StateSnapshot k = s.keyed();
        if (k != null) {
          Map<Integer, String> manifests = new TreeMap<>();
          k.manifests().forEach((g, m) -> manifests.put(g, rename.apply(m)));
          k = new io.tributary.state.StateSnapshot(k.backend(), k.checkpointId(), k.range(), manifests, k.stateBytes(),
              k.uploadedBytes());
        }
        InFlightState f = s.inFlight();
        if (f != null) {
          f = new InFlightState(rename.apply(f.object()), f.subtask(), f.records(), f.bytes());
        }
        ops.put(op, new OperatorState(s.watermark(), k, s.timers() == null ? null : rename.apply(s.timers()),
            s.committable(), f));
      });
      renamed.add(new TaskState(t.stage(), t.subtask(), t.parallelism(), t.lastCheckpoint(), t.finished(),
          t.alignmentNanos(), t.syncNanos(), t.splits(), ops));
    }
    return new CheckpointMetadata(job, id, kind, epoch, maxParallelism, createdAtMillis, renamed, stateLayouts);
  }

  /** Every object name it references, once: keyed-state manifests, timer objects, in-flight records. */
  public List<String> objectNames() {
    java.util.Set<String> out = new java.util.LinkedHashSet<>();
    for (TaskState t : tasks) {
      t.operators().values().forEach(s -> {
        if (s.keyed() != null) {
          out.addAll(s.keyed().manifests().values());
        }
        if (s.timers() != null) {
          out.add(s.timers());
        }
        if (s.inFlight() != null) {
          out.add(s.inFlight().object());
        }
      });
    }
    return new ArrayList<>(out);
  }

  /** Pre-commits by sink operator id, in task order. */
  public Map<String, List<String>> committables() {
    Map<String, List<String>> out = new TreeMap<>();
    for (TaskState t : tasks) {
      t.operators().forEach((op, s) -> {
        if (s.committable() != null) {
          out.computeIfAbsent(op, k -> new ArrayList<>()).add(s.committable());
        }
      });
    }
    return out;
  }

  /** The states of operator {@code operatorId} in every task that ran it. */
  public List<OperatorState> operator(String operatorId) {
    List<OperatorState> out = new ArrayList<>();
    for (TaskState t : tasks) {
      OperatorState s = t.operators().get(operatorId);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /** The parallelism operator {@code operatorId} ran at, or 0 if it is not in this checkpoint. */
  public int parallelismOf(String operatorId) {
    int p = 0;
    for (TaskState t : tasks) {
      if (t.operators().containsKey(operatorId)) {
        p = Math.max(p, t.parallelism());
      }
    }
    return p;
  }

  /** Every split's state, by split id (split ids are unique within a source operator). */
  public Map<String, SplitState> splits(String sourceOperatorId) {
    Map<String, SplitState> out = new TreeMap<>();
    for (TaskState t : tasks) {
      if (t.operators().containsKey(sourceOperatorId)) {
        for (SplitState s : t.splits()) {
          out.put(s.split(), s);
        }
      }
    }
    return out;
  }
}
