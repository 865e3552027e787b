package io.tributary.cli.client;

import io.tributary.client.model.Checkpoint;
import io.tributary.client.model.Job;
import io.tributary.client.model.JobFailure;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/** Jobs as a table: one row per job. */
final class JobTable {
  private JobTable() {}

  static Table of(List<Job> jobs, Instant now) {
    Table t = new Table("NAME", "DESIRED", "STATE", "PARALLELISM", "LAST-CHECKPOINT", "AGE");
    for (Job job : jobs) {
      t.row(job.getName(),
          job.getDesiredState() == null ? "-" : job.getDesiredState().getValue().toLowerCase(java.util.Locale.ROOT),
          job.getObservedState() == null ? "-" : job.getObservedState().getValue(),
          parallelism(job),
          checkpoint(job.getLastCheckpoint(), now),
          Human.age(job.getCreatedAt(), now));
    }
    return t;
  }

  /** {@code 2}, or with stages at their own {@code 2 (per-user 4)}; "-" when unknown. */
  static String parallelism(Job job) {
    String p = job.getParallelism() == null ? "-" : String.valueOf(job.getParallelism());
    if (job.getStageParallelism() == null || job.getStageParallelism().isEmpty()) {
      return p;
    }
    return p + " (" + String.join(", ", new java.util.TreeMap<>(job.getStageParallelism()).entrySet().stream()
        .map(e -> e.getKey() + " " + e.getValue()).toList()) + ")";
  }

  /** {@code #42 (12s ago)}, {@code #43 failed}, {@code #44 in progress}, or "-". */
  static String checkpoint(Checkpoint c, Instant now) {
    if (c == null) {
      return "-";
    }
    String status = c.getStatus() == null ? "" : c.getStatus().getValue();
    switch (status) {
      case "completed":
        OffsetDateTime at = c.getCompletedAt() != null ? c.getCompletedAt() : c.getTriggeredAt();
        return "#" + c.getId() + " (" + Human.age(at, now) + " ago)";
      case "in-progress":
        return "#" + c.getId() + " in progress";
      default:
        return "#" + c.getId() + " " + status;
    }
  }

  /** One line saying why the job failed: {@code failure: <reason> (USER, operator w, 3m ago)}. */
  static String failure(JobFailure f, Instant now) {
    StringBuilder sb = new StringBuilder("failure: ").append(f.getReason()).append(" (");
    if (f.getDomain() != null) {
      sb.append(f.getDomain().getValue()).append(", ");
    }
    if (Boolean.TRUE.equals(f.getRetryable())) {
      sb.append("retryable, ");
    }
    if (f.getOperatorId() != null) {
      sb.append("operator ").append(f.getOperatorId())
          .append(f.getSubtask() == null ? "" : "[" + f.getSubtask() + "]").append(", ");
    }
    return sb.append(Human.age(f.getAt(), now)).append(" ago)").toString();
  }
}
