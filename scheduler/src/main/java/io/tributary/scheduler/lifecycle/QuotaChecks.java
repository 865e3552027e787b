package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.policy.Quotas;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.SourceSpec;
import io.tributary.plan.Durations;

/** Checks requests against a project's {@link Quotas}; throws {@link QuotaExceededException}. */
final class QuotaChecks {
  private final Quotas quotas;
  private final MetadataStore metadata;
  private final JobStore jobs;

  QuotaChecks(Quotas quotas, MetadataStore metadata, JobStore jobs) {
    this.quotas = quotas;
    this.metadata = metadata;
    this.jobs = jobs;
  }

  Quotas quotas() {
    return quotas;
  }

  /** Before a job is created: the project has fewer jobs than its quota. */
  void newJob(String project) {
    if (quotas.jobs() == Integer.MAX_VALUE) {
      return;
    }
    int n = metadata.queryAll(ControlKeys.jobs(project)).size();
    if (n >= quotas.jobs()) {
      throw new QuotaExceededException("jobs", String.valueOf(quotas.jobs()), String.valueOf(n + 1), null, true,
          "project '" + project + "' has " + n + " jobs, its quota; delete one first");
    }
  }

  /** What the spec asks of every job: a checkpoint interval and source rates within the quotas. */
  void spec(JobSpec spec) {
    long min = quotas.minCheckpointInterval().toMillis();
    if (spec.checkpoints() != null && spec.checkpoints().intervalMillis() < min) {
      throw new QuotaExceededException("minCheckpointInterval", min + "ms", spec.checkpoints().intervalMillis() + "ms",
          "/spec/checkpoints/interval", false, "must be at least " + min
          + " ms, this server's minimum checkpoint interval");
    }
    for (SourceSpec s : spec.sources().values()) {
      String at = "/spec/sources/" + s.id().replace("~", "~0").replace("/", "~1");
      rate(s.maxRecordsPerSecond(), at + "/maxRecordsPerSecond");
      if ("nexmark".equals(s.type()) && s.properties().get("eventRate") instanceof Number r) {
        rate(r.doubleValue(), at + "/eventRate");
      }
      if ("datagen".equals(s.type()) && s.properties().get("interval") != null) {
        long every = Durations.parseMillis(s.properties().get("interval"));
        rate(every <= 0 ? Double.POSITIVE_INFINITY : 1000.0 / every, at + "/interval");
      }
    }
  }

  private void rate(Double perSecond, String at) {
    if (perSecond != null && perSecond > quotas.maxRecordsPerSecond()) {
      throw new QuotaExceededException("maxRecordsPerSecond", format(quotas.maxRecordsPerSecond()), format(perSecond),
          at, false, "asks for " + format(perSecond) + " records a second; this server allows at most "
          + format(quotas.maxRecordsPerSecond()) + " per source");
    }
  }

  /**
   * Before job {@code name} of {@code project} runs at {@code parallelism}: the parallelism of the
   * project's other jobs that should run plus this one stays within the quota.
   */
  void parallelism(String project, String name, int parallelism, String field) {
    if (quotas.parallelism() == Integer.MAX_VALUE) {
      return;
    }
    int others = 0;
    for (var item : metadata.queryAll(ControlKeys.jobs(project))) {
      JobRecord r = JobStore.decode(item);
      if (r.name().equals(name) || r.desired() != DesiredState.RUNNING) {
        continue;
      }
      others += parallelismOf(r);
    }
    if (others + parallelism > quotas.parallelism()) {
      throw new QuotaExceededException("parallelism", String.valueOf(quotas.parallelism()),
          String.valueOf(others + parallelism), field, true, "project '" + project + "' may run at a total parallelism of "
          + quotas.parallelism() + "; its other running jobs use " + others + ", so job '" + name + "' cannot run at "
          + parallelism + "; stop or scale down another job first");
    }
  }

  /** The parallelism {@code r} counts for: its widest stage's. */
  static int parallelismOf(JobRecord r) {
    if (r.parallelism() != null) {
      return JobManager.widest(r.parallelism(), r.stageParallelism());
    }
    try {
      return JobManager.widest(io.tributary.scheduler.spec.JobSpecs.parse(r.spec()).parallelism().initial(),
          r.stageParallelism());
    } catch (RuntimeException e) {
      return 0; // a stored spec that no longer parses does not run
    }
  }

  private static String format(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
  }

  /** The number of items under {@code prefix}. */
  int count(String prefix) {
    return metadata.queryAll(prefix).size();
  }
}
