package io.tributary.scheduler.master;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.CheckpointTarget;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.Failure;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import java.util.HashSet;
import java.util.Set;

/**
 * One attempt of a {@link JobMaster} as the control plane follows it: dispatches its workers'
 * reports (checkpoint acknowledgements to the coordinator, metrics and output to the master's
 * events), counts its tasks' ends, and is the coordinator's view of the running job. Reports of
 * other attempts are ignored: a task of an older attempt can neither acknowledge a checkpoint nor
 * end this one.
 *
 * <p>Reports arrive on workers' threads and never call back into the pool; the master's thread
 * does that.
 */
final class Attempt implements WorkerReports, CheckpointTarget {
  final AttemptId id;
  private final int taskCount;
  private final WorkerPool pool;
  private final JobMaster.Events events;
  /** Set before the attempt is deployed; null when the attempt does not checkpoint. */
  volatile CheckpointCoordinator coordinator;
  // guarded by this
  private final Set<String> ended = new HashSet<>();
  private Failure failure;
  private String cancelledTask;
  private boolean detached;

  Attempt(AttemptId id, int taskCount, WorkerPool pool, JobMaster.Events events) {
    this.id = id;
    this.taskCount = taskCount;
    this.pool = pool;
    this.events = events;
  }

  @Override
  public void report(WorkerReport r) {
    if (!id.equals(r.attempt())) {
      return; // an older (or foreign) attempt's: fenced
    }
    CheckpointCoordinator c = coordinator;
    if (r instanceof WorkerReport.CheckpointAck a) {
      if (c != null) {
        c.acknowledge(a.checkpointId(), a.state());
      }
    } else if (r instanceof WorkerReport.CheckpointDeclined d) {
      if (c != null) {
        c.decline(d.checkpointId(), d.task(), new IllegalStateException(d.reason()));
      }
    } else if (r instanceof WorkerReport.FinalState f) {
      if (c != null) {
        c.finished(f.state());
      }
    } else if (r instanceof WorkerReport.TaskEnded e) {
      ended(e);
    } else {
      events.observed(r);
    }
  }

  private synchronized void ended(WorkerReport.TaskEnded e) {
    ended.add(e.taskId());
    if (e.outcome() == WorkerReport.TaskEnded.Outcome.FAILED && failure == null) {
      failure = e.failure();
    } else if (e.outcome() == WorkerReport.TaskEnded.Outcome.CANCELLED && cancelledTask == null) {
      cancelledTask = e.taskName(); // the failure that made its worker cancel it may still be on its way
    }
    notifyAll();
  }

  /** The attempt must end: {@code f} says why (the first reason wins). Any thread. */
  synchronized void fail(Failure f) {
    if (failure == null) {
      failure = f;
    }
    notifyAll();
  }

  /**
   * The master lets go of the attempt without ending it (its control plane stops leading): {@link
   * #awaitEnd} returns at once and cancels nothing. Any thread.
   */
  synchronized void detach() {
    detached = true;
    notifyAll();
  }

  /**
   * Waits until every task ended, or one failed: then cancels the others and waits up to
   * {@code cancelWaitMillis} for them to end. Returns at once, cancelling nothing, once {@linkplain
   * #detach detached}.
   *
   * @return null if every task finished (or the attempt was detached), else the first failure (a
   *     task cancelled without one reported, as by a worker that went away, is a retryable internal
   *     failure)
   */
  Failure awaitEnd(long cancelWaitMillis) throws InterruptedException {
    Failure f;
    synchronized (this) {
      while (ended.size() < taskCount && failure == null && !detached) {
        wait();
      }
      if (detached) {
        return null;
      }
      f = failure != null || cancelledTask == null ? failure
          : new Failure(Failure.Domain.INTERNAL, true, "task " + cancelledTask + " was cancelled");
    }
    if (f == null) {
      return null;
    }
    pool.cancel(id);
    long deadline = System.nanoTime() + cancelWaitMillis * 1_000_000L;
    synchronized (this) {
      long left;
      while (ended.size() < taskCount && (left = deadline - System.nanoTime()) > 0) {
        wait(Math.max(1, left / 1_000_000L));
      }
    }
    return f;
  }

  // ---- what the coordinator sees

  @Override
  public int taskCount() {
    return taskCount;
  }

  @Override
  public void trigger(long checkpointId) {
    pool.triggerCheckpoint(id, checkpointId);
  }

  @Override
  public void trigger(long checkpointId, boolean stopSources) {
    pool.triggerCheckpoint(id, checkpointId, stopSources);
  }

  @Override
  public void notifyComplete(CheckpointMetadata metadata) {
    pool.notifyCheckpointComplete(id, metadata);
  }
}
