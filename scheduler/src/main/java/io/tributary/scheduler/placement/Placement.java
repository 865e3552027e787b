package io.tributary.scheduler.placement;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.OperatorState;
import io.tributary.checkpoint.SplitState;
import io.tributary.checkpoint.TaskState;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;

import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.SinkRecovery;
import io.tributary.protocol.SourceSplits;
import io.tributary.protocol.SplitEnumerator;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.TaskRestore;
import io.tributary.protocol.WorkerSlots;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a plan into the deployment of one attempt: for every subtask of every stage, the key groups
 * it owns (contract C1), the splits it reads, what it restores, and the worker that runs it.
 *
 * <ul>
 *   <li><b>Key groups.</b> Subtask {@code i} of {@code p} owns {@link KeyGroups#rangeFor}.
 *   <li><b>Splits.</b> Listed by the {@link SplitEnumerator}; split {@code s} goes to subtask
 *       {@code s mod p}. Restored from a checkpoint, a source resumes exactly the checkpoint's splits
 *       whatever the parallelism now (C7 for sources), plus, unless its splits follow the
 *       parallelism (generators), the splits that appeared since.
 *   <li><b>Restore.</b> Each task gets the states every earlier subtask of its operators left and
 *       the positions of its splits; keyed state and timers keep only the task's key groups when
 *       they are opened.
 *   <li><b>Workers.</b> A subtask that ran in the previous attempt of the job (the same stage and
 *       index) goes back to the worker it ran on, if that worker granted a slot still free: its state
 *       files are in that worker's cache, so a restart after a lost worker or a rescale moves only
 *       the subtasks it must (C7). Then, stage by stage, each other subtask goes to the granted
 *       worker with the most slots still free (the first such one), so a stage's subtasks spread
 *       over workers.
 * </ul>
 *
 * A pure function of its arguments (and of what the enumerator lists).
 */
public final class Placement {
  private Placement() {}

  /** One slot per task: the slots an attempt of {@code plan} needs. */
  public static int slotsNeeded(ExecutionPlan plan) {
    return plan.stages().stream().mapToInt(StagePlan::parallelism).sum();
  }

  /**
   * The largest parallelism any sink runs at in {@code plan}: what the sinks of a later attempt must
   * clean up after.
   */
  public static int maxSinkParallelism(ExecutionPlan plan) {
    int max = 0;
    for (StagePlan s : plan.stages()) {
      if (s.operators().stream().anyMatch(o -> o instanceof SinkPlan)) {
        max = Math.max(max, s.parallelism());
      }
    }
    return max;
  }

  /**
   * Places an attempt.
   *
   * @param restore the checkpoint or savepoint to start from, or null for an empty start
   * @param checkpoints how the attempt checkpoints, or null when it does not
   * @param previousMaxSinkParallelism the largest sink parallelism of the job's earlier attempts
   * @param slots the workers and slots granted to the attempt, together at least {@link #slotsNeeded}
   * @throws IncompatibleRestoreException if {@code restore} cannot be restored into {@code plan}
   */
  public static AttemptDeployment place(AttemptId attempt, ExecutionPlan plan, CheckpointMetadata restore,
      AttemptDeployment.CheckpointSettings checkpoints, int previousMaxSinkParallelism, SplitEnumerator splits,
      List<WorkerSlots> slots) {
    return place(attempt, plan, restore, checkpoints, previousMaxSinkParallelism, splits, slots, Map.of());
  }

  /**
   * As {@link #place(AttemptId, ExecutionPlan, CheckpointMetadata, AttemptDeployment.CheckpointSettings,
   * int, SplitEnumerator, List)}, each subtask back on the worker {@code previous} names for its task
   * id ({@link TaskDeployment#taskId()}) where that worker granted a slot still free.
   */
  public static AttemptDeployment place(AttemptId attempt, ExecutionPlan plan, CheckpointMetadata restore,
      AttemptDeployment.CheckpointSettings checkpoints, int previousMaxSinkParallelism, SplitEnumerator splits,
      List<WorkerSlots> slots, Map<String, String> previous) {
    checkRestorable(plan, restore);
    Workers workers = new Workers(slots, slotsNeeded(plan));
    Map<String, String> where = new HashMap<>();
    for (StagePlan stage : plan.stages()) {
      for (int i = 0; i < stage.parallelism(); i++) {
        String id = TaskDeployment.taskId(stage.id(), i);
        String before = previous.get(id);
        if (before != null && workers.take(before)) {
          where.put(id, before);
        }
      }
    }
    List<TaskDeployment> tasks = new ArrayList<>();
    for (StagePlan stage : plan.stages()) {
      List<List<String>> splitsBySubtask = stage.operators().get(0) instanceof SourcePlan sp
          ? assignSplits(stage, sp, splits, restore) : null;
      for (int i = 0; i < stage.parallelism(); i++) {
        KeyGroupRange range = KeyGroups.rangeFor(plan.maxParallelism(), stage.parallelism(), i);
        List<String> mine = splitsBySubtask == null ? List.of() : splitsBySubtask.get(i);
        TaskRestore r = restore == null ? null : taskRestore(stage, mine, restore);
        String worker = where.computeIfAbsent(TaskDeployment.taskId(stage.id(), i), k -> workers.next());
        tasks.add(new TaskDeployment(stage.id(), i, worker, range, mine, r));
      }
    }
    List<SinkRecovery> recoveries = checkpoints == null ? List.of()
        : sinkRecoveries(plan, restore, previousMaxSinkParallelism);
    return new AttemptDeployment(attempt, plan, checkpoints, recoveries, tasks);
  }

  private static void checkRestorable(ExecutionPlan plan, CheckpointMetadata restore) {
    if (restore == null) {
      return;
    }
    if (restore.maxParallelism() != plan.maxParallelism()) {
      throw new IncompatibleRestoreException("the job's maxParallelism is " + plan.maxParallelism() + " but "
          + restore.kind() + " " + restore.id() + " was taken with maxParallelism " + restore.maxParallelism()
          + "; keyed state cannot move between different numbers of key groups. Set maxParallelism back to "
          + restore.maxParallelism() + ", or start without state");
    }
    String mismatch = restore.restoreMismatch(plan);
    if (mismatch != null) {
      throw new IncompatibleRestoreException(restore.kind() + " " + restore.id() + " cannot be restored: " + mismatch
          + ". Change the spec back, or start without state");
    }
    Set<String> ops = new HashSet<>();
    for (StagePlan st : plan.stages()) {
      for (OperatorPlan op : st.operators()) {
        ops.add(op.id());
      }
    }
    for (TaskState t : restore.tasks()) {
      for (Map.Entry<String, OperatorState> e : t.operators().entrySet()) {
        if (e.getValue().keyed() != null && !ops.contains(e.getKey())) {
          throw new IncompatibleRestoreException(restore.kind() + " " + restore.id() + " holds state of operator '"
              + e.getKey() + "', which this job no longer has; keep the operator's id, set "
              + "state.allowNonRestoredState: true to leave its state behind, or start without state");
        }
      }
    }
  }

  /** The split ids each subtask of a source stage reads. */
  private static List<List<String>> assignSplits(StagePlan stage, SourcePlan sp, SplitEnumerator enumerator,
      CheckpointMetadata restore) {
    SourceSplits current = enumerator.splits(sp, stage.parallelism());
    Set<String> restored = restore == null ? Set.of() : restore.splits(sp.id()).keySet();
    List<String> all;
    if (restored.isEmpty()) {
      all = current.ids();
    } else {
      // resume the checkpoint's splits whatever the parallelism now (C7 for sources)
      Set<String> listed = new HashSet<>(current.ids());
      LinkedHashSet<String> ids = new LinkedHashSet<>();
      for (String id : restored) {
        if (!listed.contains(id) && !enumerator.canResume(sp, id)) {
          throw new IncompatibleRestoreException("source '" + sp.id() + "' cannot resume split '" + id + "' of "
              + restore.kind() + " " + restore.id() + "; restore at the parallelism it was taken with, or start "
              + "without state");
        }
        ids.add(id);
      }
      if (!current.followParallelism()) {
        ids.addAll(current.ids()); // appeared since the checkpoint
      }
      all = new ArrayList<>(ids);
    }
    List<List<String>> bySubtask = new ArrayList<>();
    for (int i = 0; i < stage.parallelism(); i++) {
      bySubtask.add(new ArrayList<>());
    }
    for (int s = 0; s < all.size(); s++) {
      bySubtask.get(s % stage.parallelism()).add(all.get(s));
    }
    return bySubtask;
  }

  private static TaskRestore taskRestore(StagePlan stage, List<String> splits, CheckpointMetadata restore) {
    Map<String, List<OperatorState>> ops = new LinkedHashMap<>();
    for (OperatorPlan op : stage.operators()) {
      List<OperatorState> states = restore.operator(op.id());
      if (!states.isEmpty()) {
        ops.put(op.id(), states);
      }
    }
    Map<String, SplitState> positions = new HashMap<>();
    if (stage.operators().get(0) instanceof SourcePlan sp && !splits.isEmpty()) {
      Map<String, SplitState> all = restore.splits(sp.id());
      for (String id : splits) {
        SplitState s = all.get(id);
        if (s != null) {
          positions.put(id, s);
        }
      }
    }
    return new TaskRestore(restore.id(), restore.kind(), ops, positions);
  }

  private static List<SinkRecovery> sinkRecoveries(ExecutionPlan plan, CheckpointMetadata restore,
      int previousMaxSinkParallelism) {
    List<SinkRecovery> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (StagePlan stage : plan.stages()) {
      for (OperatorPlan op : stage.operators()) {
        if (op instanceof SinkPlan s && seen.add(s.id())) {
          List<String> committables = restore == null ? List.of()
              : restore.committables().getOrDefault(s.id(), List.of());
          int previous = Math.max(previousMaxSinkParallelism, restore == null ? 0 : restore.parallelismOf(s.id()));
          out.add(new SinkRecovery(s.id(), committables, previous));
        }
      }
    }
    return out;
  }

  /** Hands out granted slots: always the worker with the most still free. */
  private static final class Workers {
    private final List<String> ids = new ArrayList<>();
    private final int[] free;

    Workers(List<WorkerSlots> slots, int needed) {
      free = new int[slots.size()];
      int total = 0;
      for (int i = 0; i < slots.size(); i++) {
        ids.add(slots.get(i).worker());
        free[i] = slots.get(i).slots();
        total += free[i];
      }
      if (total < needed) {
        throw new IllegalArgumentException("the attempt needs " + needed + " slots but was granted " + total);
      }
    }

    /** Takes a slot of {@code worker} if it granted one still free. */
    boolean take(String worker) {
      int i = ids.indexOf(worker);
      if (i < 0 || free[i] == 0) {
        return false;
      }
      free[i]--;
      return true;
    }

    String next() {
      int best = 0;
      for (int i = 1; i < free.length; i++) {
        if (free[i] > free[best]) {
          best = i;
        }
      }
      free[best]--;
      return ids.get(best);
    }
  }
}
