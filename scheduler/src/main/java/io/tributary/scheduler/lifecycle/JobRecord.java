package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.master.RestorePolicy;
import java.time.Instant;
import java.util.Objects;

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
 * @param generation 1 for the first spec, one more for every changed spec
 * @param version the store's version of the record, 0 before it is stored
 */
public record JobRecord(String project, String name, String spec, String fingerprint, DesiredState desired,
    RestorePolicy restore, Integer parallelism, long generation, Instant createdAt, Instant updatedAt,
    long version) {
  public JobRecord {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(desired, "desired");
    Objects.requireNonNull(restore, "restore");
  }

  /** A record for a new job: to run, without state, at the spec's parallelism. */
  public static JobRecord create(String project, String name, String spec, String fingerprint, Instant now) {
    return new JobRecord(project, name, spec, fingerprint, DesiredState.RUNNING, RestorePolicy.NONE, null, 1, now,
        now, 0);
  }

  /** The name the job runs under, unique across projects ({@link JobNames#internal}). */
  public String internalName() {
    return JobNames.internal(project, name);
  }

  public JobRecord withSpec(String newSpec, String newFingerprint, Integer newParallelism, Instant now) {
    return new JobRecord(project, name, newSpec, newFingerprint, desired, restore, newParallelism, generation + 1,
        createdAt, now, version);
  }

  public JobRecord withDesired(DesiredState newDesired, RestorePolicy newRestore, Instant now) {
    return new JobRecord(project, name, spec, fingerprint, newDesired, newRestore, parallelism, generation, createdAt,
        now, version);
  }

  public JobRecord withParallelism(Integer newParallelism, Instant now) {
    return new JobRecord(project, name, spec, fingerprint, desired, restore, newParallelism, generation, createdAt,
        now, version);
  }

  JobRecord withVersion(long newVersion) {
    return new JobRecord(project, name, spec, fingerprint, desired, restore, parallelism, generation, createdAt,
        updatedAt, newVersion);
  }
}
