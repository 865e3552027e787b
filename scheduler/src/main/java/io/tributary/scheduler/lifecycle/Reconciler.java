package io.tributary.scheduler.lifecycle;

import io.tributary.protocol.Failure;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;

/**
 * The reconcile loop: drives every job's observed state towards what its record asks for.
 *
 * <p>API calls act at once (they write the record, then act under the job's actions lock), so in
 * one process the loop usually finds nothing to do. It acts on what changed otherwise: a job record
 * that appeared in the metadata store without this process (it is taken over like a stored job at
 * start), a record whose desired state, spec or parallelism differs from what the job's run does
 * ({@link JobActions#reconcile}), and a job whose record disappeared (its run ends, it is
 * forgotten). A job whose actions lock is held is left to the next pass; under the lock the record
 * is read again, so the loop never acts on a stale one.
 */
final class Reconciler {
  private static final System.Logger LOG = System.getLogger(Reconciler.class.getName());

  private final JobContext ctx;
  private final JobActions actions;
  private final ConcurrentMap<String, ManagedJob> jobs;
  private final BiConsumer<ManagedJob, String> forget;

  /**
   * @param jobs the manager's jobs by internal name
   * @param forget removes a job whose record is gone from the manager (with why)
   */
  Reconciler(JobContext ctx, JobActions actions, ConcurrentMap<String, ManagedJob> jobs,
      BiConsumer<ManagedJob, String> forget) {
    this.ctx = ctx;
    this.actions = actions;
    this.jobs = jobs;
    this.forget = forget;
  }

  /**
   * Takes over a stored job that has no run in this process (at start, or a record another process
   * wrote): its stored status is taken, a job that should run starts again (see
   * {@link JobActions#recover}); a job whose stored spec no longer parses goes FAILED.
   *
   * <p>The job counts as taken over (its view shows this process's state of it) only once its
   * stored status is restored and the restart recorded: a take-over that fails before (the metadata
   * store could not be read or written) changed nothing stored, the view still shows the stored
   * status, and the next reconcile pass takes the job over again.
   */
  void takeOver(ManagedJob job, JobRecord record) {
    Optional<StatusStore.Status> status = ctx.statuses.get(record.project(), record.name());
    try {
      actions.recover(job, record, job.spec(record), status);
    } catch (InvalidSpecException e) {
      status.ifPresent(job::restoreStatus);
      job.markTakenOver();
      if (job.state().active() || job.state() == ObservedState.CREATED) {
        job.failAfterControlPlaneRestart(new JobFailure(Failure.Domain.USER, false,
            "user error (not retryable): the stored spec is no longer valid; apply a valid one: " + e.getMessage()));
      }
    }
  }

  /** One pass over every job of {@code projects}, and over the jobs whose record is gone. */
  void pass(List<Project> projects) {
    Set<String> seen = new HashSet<>();
    for (Project p : projects) {
      for (var item : ctx.storage.metadata().queryAll(ControlKeys.jobs(p.name()))) {
        JobRecord record = JobStore.decode(item);
        seen.add(record.internalName());
        ManagedJob job = jobs.get(record.internalName());
        if (job == null) {
          ManagedJob fresh = new ManagedJob(record.project(), record.name(), ctx);
          if (jobs.putIfAbsent(fresh.internalName, fresh) == null) {
            underLock(fresh, () -> adopt(fresh));
          }
        } else {
          underLock(job, () -> reconcile(job));
        }
      }
    }
    for (ManagedJob job : List.copyOf(jobs.values())) {
      if (!seen.contains(job.internalName) && !job.retired()) {
        underLock(job, () -> reconcile(job));
      }
    }
  }

  /** A job this process did not know: taken over as it is stored. Under its actions lock. */
  private void adopt(ManagedJob job) {
    Optional<JobRecord> record = ctx.jobs.get(job.project, job.name);
    if (record.isEmpty()) {
      job.retire();
      forget.accept(job, "job '" + job.name + "' was deleted");
      return;
    }
    LOG.log(System.Logger.Level.INFO, "job {0}/{1}: taking over the job as stored (its record was written "
        + "without this control plane)", job.project, job.name);
    takeOver(job, record.get());
  }

  /** Drives one known job towards its record. Under its actions lock. */
  private void reconcile(ManagedJob job) throws InterruptedException {
    if (job.retired()) {
      return;
    }
    if (!job.takenOver()) {
      adopt(job); // an API call made the object and has not acted yet: take the stored job over first
      return;
    }
    Optional<JobRecord> current = ctx.jobs.get(job.project, job.name);
    if (current.isEmpty()) {
      if (job.state() == ObservedState.CREATED && job.run() == null) {
        return; // an apply that has not written the record yet, or failed: it cleans up itself
      }
      actions.delete(job);
      forget.accept(job, "job '" + job.name + "' was deleted");
      return;
    }
    JobRecord record = current.get();
    JobSpec spec;
    try {
      spec = job.spec(record);
    } catch (InvalidSpecException e) {
      return; // a stored spec that no longer parses: the job stays as it is until a valid one is applied
    }
    String done = actions.reconcile(job, record, spec);
    if (done != null) {
      LOG.log(System.Logger.Level.INFO, "job {0}/{1}: {2}", job.project, job.name, done);
    }
  }

  private interface Step {
    void run() throws InterruptedException;
  }

  /** Runs {@code step} if the job's actions lock is free now; else the job waits for the next pass. */
  private void underLock(ManagedJob job, Step step) {
    boolean locked;
    try {
      locked = job.lockActions(java.time.Duration.ZERO);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (!locked) {
      return;
    }
    try {
      step.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "reconciling job " + job.project + "/" + job.name + " failed", e);
    } finally {
      job.unlockActions();
    }
  }
}
