package io.tributary.scheduler.lifecycle;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.planner.Planner;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.spec.CheckpointSpec;
import io.tributary.scheduler.policy.SpecAccess;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.SpecBudget;
import java.time.Duration;
import java.time.Instant;

/** What every {@link ManagedJob} of one {@link JobManager} shares: services, stores and settings. */
final class JobContext {
  private static final String METADATA_SUFFIX = "/_metadata";

  final JobManager.Settings settings;
  final ControlPlaneServices storage;
  final JobStore jobs;
  final StatusStore statuses;
  final EventLog events;
  final Leadership leadership;

  JobContext(JobManager.Settings settings, ControlPlaneServices storage, Leadership leadership) {
    this.settings = settings;
    this.storage = storage;
    this.leadership = leadership;
    this.jobs = new JobStore(storage.metadata());
    this.statuses = new StatusStore(storage.metadata(), leadership::epoch);
    this.events = new EventLog(storage.metadata(), settings.clock());
  }

  Instant now() {
    return settings.clock().instant();
  }

  Duration actionTimeout() {
    return settings.actionTimeout();
  }

  /**
   * The plan of {@code spec} at {@code parallelism} (null: the spec's), under the job's internal name:
   * its file paths resolved in {@code project}'s directories, everything it reaches checked against
   * the settings' policy ({@link SpecAccess}).
   *
   * @throws io.tributary.scheduler.spec.InvalidSpecException if the spec cannot be planned
   */
  ExecutionPlan plan(JobSpec spec, Integer parallelism, String project, String internalName) {
    return plan(spec, parallelism, java.util.Map.of(), project, internalName);
  }

  /** The plan of {@code spec} at the parallelism of {@code record} (the job's and its stages'). */
  ExecutionPlan plan(JobSpec spec, JobRecord record) {
    return plan(spec, record.parallelism(), record.stageParallelism(), record.project(), record.internalName());
  }

  ExecutionPlan plan(JobSpec spec, Integer parallelism, java.util.Map<String, Integer> stages, String project,
      String internalName) {
    JobSpec resolved = SpecAccess.resolve(settings.policy(), project, spec);
    ExecutionPlan p = SpecBudget.within(SpecBudget.DEFAULT, () -> Planner.plan(resolved, parallelism, stages));
    return new ExecutionPlan(internalName, p.maxParallelism(), p.stateBackend(), p.stages(), p.edges());
  }

  /** A runner of {@code plan} with the spec's checkpoint settings (or the defaults) and this process's storage. */
  JobMaster runner(JobSpec spec, ExecutionPlan plan, RestorePolicy restore, JobMaster.Events events) {
    return runner(spec, plan, restore, events, false, java.util.Map.of());
  }

  /**
   * As {@link #runner(JobSpec, ExecutionPlan, RestorePolicy, JobMaster.Events)}; with {@code
   * reattach}, its first attempt is the one the workers still run for the control plane before this
   * one, if they do (see {@link JobManager.Settings#reattachWait}); its tasks go back to the workers
   * {@code previous} names where they can (task id to worker).
   */
  JobMaster runner(JobSpec spec, ExecutionPlan plan, RestorePolicy restore, JobMaster.Events events,
      boolean reattach, java.util.Map<String, String> previous) {
    CheckpointSpec c = spec.checkpoints();
    long interval = c != null ? c.intervalMillis() : settings.defaultCheckpointInterval().toMillis();
    int retain = c != null ? c.retain() : CheckpointSpec.DEFAULT_RETAIN;
    JobMaster.Settings s = new JobMaster.Settings(plan, interval, retain, settings.checkpointTimeout().toMillis(),
        restore, settings.restarts(), c == null || c.exactlyOnce()).withReattachWait(reattach ? settings.reattachWait()
        : Duration.ZERO).withPreviousPlacement(previous)
        .withAllowNonRestoredState(spec.state().allowsNonRestoredState());
    if (c != null && c.unaligned()) {
      s = s.withUnaligned(c.alignmentTimeoutMillis());
    }
    JobMaster.Services services = new JobMaster.Services(storage.pool(), storage.splits(), storage.stateBackends(),
        storage.workersHaveOwnState());
    return new JobMaster(s, services, checkpoints(plan.jobName()), events);
  }

  /** The checkpoints of the job that runs under {@code internalName}. */
  CheckpointStore checkpoints(String internalName) {
    return new CheckpointStore(internalName, storage.checkpoints(), storage.metadata(), leadership::epoch);
  }

  /** The path a user names to restore {@code md}: {@code <job>/savepoints/sp-<id>} or {@code .../chk-<id>}. */
  static String pathOf(CheckpointMetadata md) {
    return md.job() + (md.isSavepoint() ? "/savepoints/sp-" : "/checkpoints/chk-") + md.id();
  }

  /** A path as the checkpoint store records it, without its {@code /_metadata} suffix. */
  static String shortPath(String metadataPath) {
    return metadataPath.endsWith(METADATA_SUFFIX)
        ? metadataPath.substring(0, metadataPath.length() - METADATA_SUFFIX.length()) : metadataPath;
  }

  /**
   * The checkpoint or savepoint at {@code path}, if it belongs to the job {@code internalName}.
   *
   * @throws InvalidRequestException naming {@code restore} if there is none, or it is another job's
   */
  CheckpointMetadata checkRestorable(String internalName, String path) {
    CheckpointStore store = checkpoints(internalName);
    CheckpointMetadata md;
    try {
      md = store.load(store.resolve(path));
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("restore", e.getMessage());
    } catch (RuntimeException e) {
      throw new InvalidRequestException("restore", "cannot read a checkpoint or savepoint at '" + path + "': "
          + e.getMessage());
    }
    if (!md.job().equals(internalName)) {
      throw new InvalidRequestException("restore", "'" + path + "' is a " + md.kind() + " of another job; a job "
          + "restores only its own checkpoints and savepoints");
    }
    return md;
  }

  /**
   * Why the checkpoint or savepoint {@code p} names (the latest one for LATEST) cannot be restored
   * into the job's {@code plan} ({@link CheckpointMetadata#restoreMismatch}), as {@code
   * "savepoint 7 cannot be restored: operator 'x' ..."}; null when it can, for NONE, and for a job
   * without checkpoints or whose latest cannot be read now (its deploy finds out). With {@code
   * allowNonRestored} ({@link io.tributary.scheduler.spec.StateSpec#allowsNonRestoredState}) the
   * state of operators the plan no longer has does not stand in the way.
   *
   * @throws InvalidRequestException naming {@code restore} if a path names no checkpoint or
   *     savepoint of this job
   */
  String stateMismatch(String internalName, RestorePolicy p, boolean allowNonRestored,
      java.util.function.Supplier<ExecutionPlan> plan) {
    CheckpointMetadata md;
    if (p.mode() == RestorePolicy.Mode.PATH) {
      md = checkRestorable(internalName, p.path());
    } else if (p.mode() == RestorePolicy.Mode.LATEST) {
      md = latestOrNull(internalName);
    } else {
      md = null;
    }
    // planned only when there is a checkpoint to restore (planning checks the spec's paths and hosts again)
    if (md == null) {
      return null;
    }
    ExecutionPlan next = plan.get();
    String mismatch = (allowNonRestored ? md.withOperatorsOf(next) : md).restoreMismatch(next);
    return mismatch == null ? null : md.kind() + " " + md.id() + " cannot be restored: " + mismatch;
  }

  /**
   * Refuses a resume from {@code p} whose state cannot be restored into the job's {@code plan}.
   *
   * @throws InvalidRequestException naming {@code restore}, saying why and what to do
   */
  void checkResumable(String internalName, RestorePolicy p, boolean allowNonRestored,
      java.util.function.Supplier<ExecutionPlan> plan) {
    String mismatch = stateMismatch(internalName, p, allowNonRestored, plan);
    if (mismatch != null) {
      throw new InvalidRequestException("restore", mismatch + ". Change the spec back, or resume from none to start "
          + "without state");
    }
  }

  /** The job's latest checkpoint or savepoint; null when it has none or it cannot be read now. */
  private CheckpointMetadata latestOrNull(String internalName) {
    CheckpointStore store = checkpoints(internalName);
    try {
      return store.latest().map(ptr -> store.load(ptr.path())).orElse(null);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Stores {@code next} over the version it was read at.
   *
   * @throws StateConflictException (retryable) if another writer changed it meanwhile
   */
  JobRecord save(JobRecord next) {
    try {
      return jobs.put(next, next.version());
    } catch (ConflictException e) {
      throw new StateConflictException(null, "job '" + next.name() + "' was changed concurrently (" + e.getMessage()
          + "); read it again and retry", true);
    }
  }
}
