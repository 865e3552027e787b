package io.tributary.scheduler.lifecycle;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.SplitState;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.spec.JobSpec;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Watches the sources of IDLE jobs for new input while they hold no worker: for each source, the
 * records its external system holds beyond the positions of the checkpoint the job went idle at
 * ({@link io.tributary.protocol.SplitEnumerator#pending}). When any has some, the job is handed to
 * {@code wake}, which resumes it on the reconcile thread. One poll looks at every idle job once;
 * a source that cannot be asked is told once in the job's events, and asked again next poll.
 */
final class IdleWatch {
  private static final System.Logger LOG = System.getLogger(IdleWatch.class.getName());

  /** Resumes a job whose sources have {@code pending} records. */
  interface Wake {
    void wake(ManagedJob job, long pending);
  }

  private final JobContext ctx;
  private final Supplier<Collection<ManagedJob>> jobs;
  private final Wake wake;

  IdleWatch(JobContext ctx, Supplier<Collection<ManagedJob>> jobs, Wake wake) {
    this.ctx = ctx;
    this.jobs = jobs;
    this.wake = wake;
  }

  /** Looks once at every IDLE job that is to run. */
  void poll() {
    if (!ctx.leadership.leading()) {
      return;
    }
    for (ManagedJob job : jobs.get()) {
      if (job.state() != ObservedState.IDLE || job.retired()) {
        continue;
      }
      try {
        long pending = pending(job);
        if (job.watchProblem() != null) {
          job.watchProblem(null);
          ctx.events.append(job.project, job.name, JobEvent.Type.STATE_CHANGED, null, null,
              "idle: its sources can be watched again");
        }
        if (pending > 0) {
          wake.wake(job, pending);
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
  }

  /** The records waiting on the job's sources beyond where it went idle; 0 for a job gone meanwhile. */
  private long pending(ManagedJob job) {
    Optional<JobRecord> record = ctx.jobs.get(job.project, job.name);
    if (record.isEmpty() || record.get().desired() != DesiredState.RUNNING) {
      return 0;
    }
    JobSpec spec = job.spec(record.get());
    ExecutionPlan plan = ctx.plan(spec, record.get().parallelism(), job.project, job.internalName);
    Map<String, Map<String, String>> positions = job.idlePositions();
    if (positions == null) {
      positions = positions(plan, ctx.checkpoints(job.internalName));
      job.idlePositions(positions);
    }
    long pending = 0;
    for (StagePlan stage : plan.stages()) {
      OperatorPlan head = stage.operators().get(0);
      if (head instanceof SourcePlan source) {
        OptionalLong n = ctx.storage.splits().pending(source, positions.getOrDefault(source.id(), Map.of()));
        if (n.isPresent()) {
          pending += n.getAsLong();
        }
      }
    }
    return pending;
  }

  /** Every source's split positions in the job's latest checkpoint (none without one). */
  private static Map<String, Map<String, String>> positions(ExecutionPlan plan, CheckpointStore store) {
    Map<String, Map<String, String>> out = new HashMap<>();
    Optional<CheckpointStore.Pointer> latest = store.latest();
    if (latest.isEmpty()) {
      return out;
    }
    CheckpointMetadata md = store.load(latest.get().path());
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
    return out;
  }
}
