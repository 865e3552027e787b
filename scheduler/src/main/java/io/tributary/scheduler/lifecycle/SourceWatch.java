package io.tributary.scheduler.lifecycle;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.SplitState;
import io.tributary.connect.SourceBacklog;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.spec.JobSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Asks the external systems behind jobs' sources how many records wait beyond the positions of each
 * job's latest checkpoint ({@link io.tributary.protocol.SplitEnumerator#backlog}; Kafka: end offsets
 * minus positions), for two uses:
 *
 * <ul>
 *   <li>an IDLE job holds no worker, so nothing else sees its input arrive: every poll asks, and
 *       when any source has records the job goes to {@code wake}, which resumes it on the reconcile
 *       thread; a source that cannot be asked is told once in the job's events and asked again;
 *   <li>a running job's backlog and its growth are the lag terms of the autoscaler's target rate
 *       for its sources: asked every {@link #BACKLOG_EVERY}, with what was ever written to them (so
 *       the rate they are written at), kept in the job's
 *       {@link io.tributary.scheduler.observe.SourceBacklogs}.
 * </ul>
 *
 * Sources that cannot tell (files, generators) are not asked.
 */
final class SourceWatch {
  private static final System.Logger LOG = System.getLogger(SourceWatch.class.getName());

  /** How often a running job's backlog is asked for. */
  static final Duration BACKLOG_EVERY = Duration.ofSeconds(5);

  /** Resumes a job whose sources have {@code pending} records. */
  interface Wake {
    void wake(ManagedJob job, long pending);
  }

  private final JobContext ctx;
  private final Supplier<Collection<ManagedJob>> jobs;
  private final Wake wake;

  SourceWatch(JobContext ctx, Supplier<Collection<ManagedJob>> jobs, Wake wake) {
    this.ctx = ctx;
    this.jobs = jobs;
    this.wake = wake;
  }

  /** Looks once at every IDLE job, and at every running job whose backlog is due. */
  void poll() {
    if (!ctx.leadership.leading()) {
      return;
    }
    for (ManagedJob job : jobs.get()) {
      if (job.retired()) {
        continue;
      }
      ObservedState s = job.state();
      if (s == ObservedState.IDLE) {
        watchIdle(job);
      } else if (s == ObservedState.RUNNING && job.metrics.running()) {
        askBacklog(job);
      }
    }
  }

  private void watchIdle(ManagedJob job) {
    try {
      Map<String, SourceBacklog> pending = backlogs(job);
      if (job.watchProblem() != null) {
        job.watchProblem(null);
        ctx.events.append(job.project, job.name, JobEvent.Type.STATE_CHANGED, null, null,
            "idle: its sources can be watched again");
      }
      long total = pending.values().stream().mapToLong(SourceBacklog::pending).sum();
      if (total > 0) {
        wake.wake(job, total);
      }
    } catch (RuntimeException e) {
      String why = String.valueOf(e.getMessage());
      if (!why.equals(job.watchProblem())) {
        job.watchProblem(why);
        ctx.events.append(job.project, job.name, JobEvent.Type.STATE_CHANGED, null, null,
            "idle: cannot see whether its sources have new input (" + why + "); it stays idle and asks again; "
                + "resume it to start it now");
        LOG.log(System.Logger.Level.WARNING, "job {0}/{1}: watching its sources failed: {2}", job.project,
            job.name, why);
      }
    }
  }

  private void askBacklog(ManagedJob job) {
    Instant now = ctx.now();
    Instant last = job.backlogAskedAt();
    if (last != null && now.isBefore(last.plus(BACKLOG_EVERY))) {
      return;
    }
    job.backlogAskedAt(now);
    try {
      backlogs(job).forEach((source, b) -> job.backlogs.observe(source, b.pending(), b.written(), b.splits(), now));
      job.backlogProblem(null);
    } catch (RuntimeException e) {
      String why = String.valueOf(e.getMessage());
      if (!why.equals(job.backlogProblem())) {
        job.backlogProblem(why);
        LOG.log(System.Logger.Level.WARNING, "job {0}/{1}: cannot ask its sources for their backlog (the "
            + "autoscaler sizes them by the rate they read): {2}", job.project, job.name, why);
      }
    }
  }

  /**
   * What waits for each source of the job that can tell, by source operator id, beyond its latest
   * checkpoint; empty for a job that is gone or is not to run.
   */
  private Map<String, SourceBacklog> backlogs(ManagedJob job) {
    Map<String, SourceBacklog> out = new HashMap<>();
    Optional<JobRecord> record = ctx.jobs.get(job.project, job.name);
    if (record.isEmpty() || record.get().desired() != DesiredState.RUNNING) {
      return out;
    }
    JobSpec spec = job.spec(record.get());
    if (spec.sources().values().stream().noneMatch(s -> JobSpec.WATCHABLE_SOURCES.contains(s.type()))) {
      return out;
    }
    ExecutionPlan plan = job.metrics.plan() != null && job.state() == ObservedState.RUNNING ? job.metrics.plan()
        : ctx.plan(spec, record.get());
    Map<String, Map<String, String>> positions = positions(job, plan, ctx.checkpoints(job.internalName));
    for (StagePlan stage : plan.stages()) {
      OperatorPlan head = stage.operators().get(0);
      if (head instanceof SourcePlan source && JobSpec.WATCHABLE_SOURCES.contains(source.type())) {
        ctx.storage.splits().backlog(source, positions.getOrDefault(source.id(), Map.of()))
            .ifPresent(b -> out.put(source.id(), b));
      }
    }
    return out;
  }

  /**
   * Every source's split positions in the job's latest checkpoint (none without one), read once per
   * checkpoint.
   */
  private static Map<String, Map<String, String>> positions(ManagedJob job, ExecutionPlan plan, CheckpointStore store) {
    Optional<CheckpointStore.Pointer> latest = store.latest();
    if (latest.isEmpty()) {
      return Map.of();
    }
    ManagedJob.WatchedPositions cached = job.watchedPositions();
    if (cached != null && cached.checkpointId() == latest.get().id()) {
      return cached.bySource();
    }
    CheckpointMetadata md = store.load(latest.get().path());
    Map<String, Map<String, String>> out = new HashMap<>();
    for (StagePlan stage : plan.stages()) {
      if (stage.operators().get(0) instanceof SourcePlan source) {
        Map<String, String> splits = new HashMap<>();
        for (Map.Entry<String, SplitState> e : md.splits(source.id()).entrySet()) {
          if (e.getValue().position() != null) {
            splits.put(e.getKey(), e.getValue().position());
          }
        }
        out.put(source.id(), splits);
      }
    }
    job.watchedPositions(new ManagedJob.WatchedPositions(latest.get().id(), out));
    return out;
  }
}
