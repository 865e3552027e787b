package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.master.RestorePolicy;
import java.time.Instant;

/**
 * A job as the API shows it: what the user declared and what the control plane observes.
 *
 * @param spec the spec's text as last applied
 * @param generation 1 for the first spec, one more for every changed spec
 * @param desired whether the job should run
 * @param restore what the current run started from, or what the next start restores
 * @param observed what the job is doing
 * @param parallelism the parallelism the job runs at (or will, once started): a rescale's, else the
 *     spec's initial parallelism
 * @param stageParallelism the stages that run at a parallelism of their own, by the id of each
 *     stage's first operator (see {@link JobRecord#stageParallelism()})
 * @param lastCheckpoint the job's latest completed checkpoint or savepoint, or null if none
 * @param failure why the job FAILED; null in any other state
 * @param version the ETag: the version of the job's record, which only user actions change
 * @param tasks where each task of the current attempt runs; empty when none is deployed
 * @param sql for a job applied as SQL, its text (see {@link JobRecord#sql()}); null otherwise
 */
public record JobView(String project, String name, String spec, long generation, DesiredState desired,
    RestorePolicy restore, ObservedState observed, int parallelism, java.util.Map<String, Integer> stageParallelism,
    CheckpointRef lastCheckpoint, JobFailure failure, long version, Instant createdAt, Instant updatedAt,
    java.util.List<TaskPlacement> tasks, String sql) {
  public JobView {
    stageParallelism = stageParallelism == null ? java.util.Map.of() : java.util.Map.copyOf(stageParallelism);
    tasks = tasks == null ? java.util.List.of() : java.util.List.copyOf(tasks);
  }
}
