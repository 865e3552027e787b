package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.spec.JobSpecs;
import java.time.Instant;
import java.util.Optional;

/** Builds {@link JobView}s from a job's record, its observed state and its checkpoint store. */
final class JobViews {
  private final JobContext ctx;

  JobViews(JobContext ctx) {
    this.ctx = ctx;
  }

  /**
   * The view of {@code record}; {@code managed} is its managed job, or null to read the stored status.
   * A job this process has not taken over yet (a replica just elected, or just restarted) shows its
   * stored status too: its object knows nothing yet, and would show every such job as created.
   */
  JobView of(JobRecord record, ManagedJob managed) {
    ManagedJob job = managed != null && managed.takenOver() ? managed : null;
    Optional<StatusStore.Status> stored = job != null ? Optional.empty()
        : ctx.statuses.get(record.project(), record.name());
    ManagedJob.Snapshot s = job != null ? job.snapshot()
        : stored.map(st -> new ManagedJob.Snapshot(st.observed(), st.failure()))
            .orElse(new ManagedJob.Snapshot(ObservedState.CREATED, null));
    java.util.List<TaskPlacement> tasks = job != null ? job.placement()
        : stored.map(StatusStore.Status::tasks).orElse(java.util.List.of()); // as the leader stored them
    return new JobView(record.project(), record.name(), record.spec(), record.generation(), record.desired(),
        record.restore(), s.state(), parallelism(record, job), record.stageParallelism(), lastCheckpoint(record, job), s.failure(),
        record.version(), record.createdAt(), record.updatedAt(), tasks, record.sql());
  }

  /** A rescale's parallelism, else the spec's initial one; 0 if the stored spec no longer parses. */
  private static int parallelism(JobRecord record, ManagedJob job) {
    if (record.parallelism() != null) {
      return record.parallelism();
    }
    try {
      return (job != null ? job.spec(record) : JobSpecs.parse(record.spec())).parallelism().initial();
    } catch (InvalidSpecException e) {
      return 0;
    }
  }

  private CheckpointRef lastCheckpoint(JobRecord record, ManagedJob job) {
    CheckpointStore store = ctx.checkpoints(record.internalName());
    Optional<CheckpointStore.Pointer> latest = store.latest();
    if (latest.isEmpty()) {
      return null;
    }
    CheckpointStore.Pointer p = latest.get();
    CheckpointRef seen = job != null ? job.lastCompleted() : null;
    if (seen != null && seen.id() == p.id()) {
      return seen;
    }
    return store.retained(p.kind(), p.id()).map(r -> ref(store, r)).orElseGet(() -> ref(store, p.id(), p.kind(),
        p.path()));
  }

  /**
   * A retained checkpoint or savepoint as its entry describes it; the completion time of an entry
   * of an older version, which has no summary, is read from its metadata.
   */
  static CheckpointRef ref(CheckpointStore store, CheckpointStore.Retained r) {
    CheckpointStore.Summary s = r.summary();
    if (s == null || s.completedAtMillis() == null) {
      CheckpointRef old = ref(store, r.id(), r.kind(), r.path());
      return new CheckpointRef(old.id(), old.kind(), old.path(), old.completedAt(), s);
    }
    return new CheckpointRef(r.id(), r.kind(), JobContext.shortPath(r.path()),
        Instant.ofEpochMilli(s.completedAtMillis()), s);
  }

  /** A checkpoint or savepoint with its completion time read from its metadata (null if unreadable). */
  static CheckpointRef ref(CheckpointStore store, long id, String kind, String path) {
    Instant at = null;
    try {
      at = Instant.ofEpochMilli(store.load(store.resolve(path)).createdAtMillis());
    } catch (RuntimeException e) {
      // deleted meanwhile, or unreadable: shown without its time
    }
    return new CheckpointRef(id, kind, JobContext.shortPath(path), at);
  }
}
