package io.tributary.worker.remote;

import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.Failure;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.plan.StagePlan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One attempt's slots, deployment, and where its reports go; or an orphan: an attempt workers
 * still run that no control plane follows (yet), whose slots are those of the workers that said so.
 */
final class Route {
  private final AttemptId id;
  private final Map<String, Integer> reserved;
  final long createdAtNanos = System.nanoTime();
  // guarded by this
  private AttemptDeployment deployment;
  private WorkerReports reports;
  private final Set<String> ended = new HashSet<>();
  /** Workers lost while they ran a task of it: fenced from it for good. */
  private final Set<String> lost = new HashSet<>();
  private boolean released;
  private boolean orphan;
  /** For an orphan: the task ends and final states its workers told, until it is adopted. */
  private final List<WorkerReport> kept = new ArrayList<>();
  private long lastCheckpointId;

  Route(AttemptId id, Map<String, Integer> reserved) {
    this.id = id;
    this.reserved = new ConcurrentHashMap<>(reserved);
  }

  /** An attempt an earlier control plane deployed; its workers claim it one by one. */
  static Route orphan(AttemptDeployment d) {
    Route r = new Route(d.attempt(), Map.of());
    r.deployment = d;
    r.orphan = true;
    return r;
  }

  AttemptId id() {
    return id;
  }

  int reserved(String worker) {
    return reserved.getOrDefault(worker, 0);
  }

  synchronized boolean orphan() {
    return orphan;
  }

  /** {@code worker} runs its tasks of this orphan: they take its slots. */
  synchronized void claimedBy(String worker, long lastCheckpoint) {
    reserved.put(worker, deployment.tasksOn(worker).size());
    lastCheckpointId = Math.max(lastCheckpointId, lastCheckpoint);
  }

  synchronized long lastCheckpointId() {
    return lastCheckpointId;
  }

  /** Whether every worker the attempt has tasks on claimed it and is registered. */
  synchronized boolean complete(Set<String> registered) {
    return deployment.tasks().stream().map(TaskDeployment::worker)
        .allMatch(w -> reserved.containsKey(w) && registered.contains(w));
  }

  /** The orphan is followed from now on: what its workers told so far goes to {@code to} first. */
  synchronized void adopt(WorkerReports to) {
    orphan = false;
    reports = to;
    kept.forEach(to::report);
    kept.clear();
  }

  synchronized void deployed(AttemptDeployment d, WorkerReports to) {
    this.deployment = d;
    this.reports = to;
  }

  synchronized AttemptDeployment deployment() {
    return deployment;
  }

  synchronized boolean runsOn(String worker) {
    if (deployment == null || lost.contains(worker) || (orphan && !reserved.containsKey(worker))) {
      return false;
    }
    return deployment.tasks().stream().anyMatch(t -> t.worker().equals(worker));
  }

  /** The workers running a subtask of a stage {@code which} accepts, in task order. */
  synchronized Set<String> workersOf(java.util.function.Predicate<StagePlan> which) {
    Set<String> out = new LinkedHashSet<>();
    if (deployment == null) {
      out.addAll(reserved.keySet());
      return out;
    }
    for (TaskDeployment t : deployment.tasks()) {
      if (which.test(deployment.plan().stage(t.stageId()))) {
        out.add(t.worker());
      }
    }
    return out;
  }

  synchronized void deliver(WorkerReport report) {
    if (released || (reports == null && !orphan)) {
      return;
    }
    if (report instanceof WorkerReport.TaskEnded e) {
      if (!ended.add(e.taskId())) {
        return; // already ended (the worker was lost and its end reported for it, or told again)
      }
    }
    if (orphan) {
      if (report instanceof WorkerReport.TaskEnded || report instanceof WorkerReport.FinalState) {
        kept.add(report);
      }
      return;
    }
    reports.report(report);
  }

  /** Every task {@code worker} ran that has not ended ends FAILED with {@code failure}. */
  synchronized void workerLost(String worker, Failure failure) {
    if (released || deployment == null) {
      return;
    }
    if (orphan) {
      reserved.remove(worker); // it must claim the orphan again, if it comes back still running it
      return;
    }
    if (deployment.tasks().stream().anyMatch(t -> t.worker().equals(worker))) {
      lost.add(worker);
    }
    for (TaskDeployment t : deployment.tasks()) {
      if (t.worker().equals(worker) && !ended.contains(t.taskId())) {
        ended.add(t.taskId());
        StagePlan stage = deployment.plan().stage(t.stageId());
        String name = stage.name() + " (" + (t.subtask() + 1) + "/" + stage.parallelism() + ")";
        reports.report(new WorkerReport.TaskEnded(id, t.taskId(), name, WorkerReport.TaskEnded.Outcome.FAILED,
            failure.prefixed("task " + name + " failed: ")));
      }
    }
  }

  synchronized void release() {
    released = true;
  }
}
