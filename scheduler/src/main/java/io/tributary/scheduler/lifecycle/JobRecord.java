package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.master.RestorePolicy;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A job as the user declared it: its spec and what it should be doing. Stored under
 * {@code projects/<project>/jobs/<name>} by {@link JobStore}; only user actions change it, so its
 * {@link #version()} is the job's ETag. What the job is observed doing is kept apart (see {@link
 * JobView}), so that it can change without moving the ETag.
 *
 * @param spec the spec's text as last applied (YAML or JSON)
 * @param fingerprint hash of the parsed spec in canonical form (see {@link SpecFingerprint}): an
 *     apply with the same fingerprint changes nothing
 * @param desired whether the job should run
 * @param restore what the next start restores when no other policy is named: after a stop with a
 *     savepoint, that savepoint; else the latest checkpoint (a new job: no state)
 * @param parallelism the parallelism a rescale set, or null for the spec's initial parallelism
 * @param stageParallelism the stages that run at a parallelism of their own (a rescale of some
 *     stages, or the autoscaler's), by the id of the stage's first operator; empty: every stage at
 *     the job's parallelism
 * @param generation 1 for the first spec, one more for every changed spec
 * @param version the store's version of the record, 0 before it is stored
 * @param sql for a job applied as SQL, its text as applied with the spec it compiled to, {@code
 *     spec} (the compiled spec, as JSON); null for a job applied as a spec
 */
public record JobRecord(String project, String name, String spec, String fingerprint, DesiredState desired,
    RestorePolicy restore, Integer parallelism, Map<String, Integer> stageParallelism, long generation,
    Instant createdAt, Instant updatedAt, long version, String sql) {
  public JobRecord {
    stageParallelism = stageParallelism == null ? Map.of() : Map.copyOf(new TreeMap<>(stageParallelism));
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(desired, "desired");
    Objects.requireNonNull(restore, "restore");
  }

  /** A record for a new job: to run, without state, at the spec's parallelism. */
  public static JobRecord create(String project, String name, String spec, String fingerprint, Instant now) {
    return create(project, name, spec, fingerprint, now, null);
  }

  /** A record for a new job, applied as {@code sql} (null: as a spec) that compiled to {@code spec}. */
  public static JobRecord create(String project, String name, String spec, String fingerprint, Instant now,
      String sql) {
    return new JobRecord(project, name, spec, fingerprint, DesiredState.RUNNING, RestorePolicy.NONE, null, Map.of(), 1,
        now, now, 0, sql);
  }

  /** The name the job runs under, unique across projects ({@link JobNames#internal}). */
  public String internalName() {
    return JobNames.internal(project, name);
  }

  public JobRecord withSpec(String newSpec, String newFingerprint, Integer newParallelism,
      Map<String, Integer> newStageParallelism, Instant now) {
    return withSpec(newSpec, newFingerprint, newParallelism, newStageParallelism, now, null);
  }

  /** This job with a changed spec, applied as {@code newSql} (null: as a spec). */
  public JobRecord withSpec(String newSpec, String newFingerprint, Integer newParallelism,
      Map<String, Integer> newStageParallelism, Instant now, String newSql) {
    return new JobRecord(project, name, newSpec, newFingerprint, desired, restore, newParallelism,
        newStageParallelism, generation + 1, createdAt, now, version, newSql);
  }

  public JobRecord withDesired(DesiredState newDesired, RestorePolicy newRestore, Instant now) {
    return new JobRecord(project, name, spec, fingerprint, newDesired, newRestore, parallelism, stageParallelism,
        generation, createdAt, now, version, sql);
  }

  /** Every stage at {@code newParallelism} (null: the spec's initial one). */
  public JobRecord withParallelism(Integer newParallelism, Instant now) {
    return withParallelism(newParallelism, Map.of(), now);
  }

  /** The job at {@code newParallelism}, the stages named in {@code newStageParallelism} at theirs. */
  public JobRecord withParallelism(Integer newParallelism, Map<String, Integer> newStageParallelism, Instant now) {
    return new JobRecord(project, name, spec, fingerprint, desired, restore, newParallelism, newStageParallelism,
        generation, createdAt, now, version, sql);
  }

  JobRecord withVersion(long newVersion) {
    return new JobRecord(project, name, spec, fingerprint, desired, restore, parallelism, stageParallelism,
        generation, createdAt, updatedAt, newVersion, sql);
  }
}
