package io.tributary.server;

import io.tributary.api.generated.model.Checkpoint;
import io.tributary.api.generated.model.DesiredState;
import io.tributary.api.generated.model.ErrorDomain;
import io.tributary.api.generated.model.ExecutionPlan;
import io.tributary.api.generated.model.Job;
import io.tributary.api.generated.model.JobEvent;
import io.tributary.api.generated.model.JobFailure;
import io.tributary.api.generated.model.KeyGroupRange;
import io.tributary.api.generated.model.ObservedState;
import io.tributary.api.generated.model.PlanEdge;
import io.tributary.api.generated.model.PlanLink;
import io.tributary.api.generated.model.PlanOperator;
import io.tributary.api.generated.model.PlanStage;
import io.tributary.api.generated.model.RestorePolicy;
import io.tributary.api.generated.model.Savepoint;
import io.tributary.api.generated.model.SnapshotStatus;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.lifecycle.CheckpointRef;
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.plan.JoinPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TopNPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.scheduler.planner.PlanPrinter;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.state.KeyGroups;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns the control plane's views into the API's resources (the models generated from the contract). */
final class ApiModels {
  /** The API's id of savepoint {@code n}. */
  static final String SAVEPOINT_ID_PREFIX = "sp-";

  private ApiModels() {}

  static OffsetDateTime time(Instant t) {
    return t == null ? null : t.atOffset(ZoneOffset.UTC);
  }

  /** The API trees of recently shown spec texts (a job is read far more often than it changes). */
  private static final java.util.Map<String, SpecDocument> TREES = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, SpecDocument> eldest) {
          return size() > 2048;
        }
      });

  static Job job(JobView v) {
    JobSpec spec = JobSpecs.parse(v.spec());
    SpecDocument tree = TREES.computeIfAbsent(v.spec(),
        text -> new SpecDocument(JsonTrees.toMicronaut(JsonTrees.parseSpec(text))));
    Job job = new Job(v.name(), v.project(), v.version(), tree,
        DesiredState.fromValue(v.desired().name()), restorePolicy(v.restore()),
        ObservedState.fromValue(v.observed().name().toLowerCase(Locale.ROOT)), spec.effectiveMaxParallelism(),
        time(v.createdAt()), time(v.updatedAt()));
    if (v.parallelism() > 0) {
      job.parallelism(v.parallelism());
    }
    if (v.sql() != null) {
      job.sql(v.sql());
    }
    if (!v.stageParallelism().isEmpty()) {
      job.stageParallelism(v.stageParallelism());
    }
    if (v.lastCheckpoint() != null) {
      job.lastCheckpoint(checkpoint(v.lastCheckpoint()));
    }
    if (v.failure() != null) {
      job.failure(new JobFailure(v.failure().message(), ErrorDomain.fromValue(v.failure().domain().name()),
          v.failure().retryable(), time(v.updatedAt())));
    }
    if (!v.tasks().isEmpty()) {
      job.tasks(v.tasks().stream().map(t -> new io.tributary.api.generated.model.TaskPlacement(t.stageId(),
          t.subtask(), t.worker()).stage(t.stage())).toList());
    }
    return job;
  }

  static RestorePolicy restorePolicy(io.tributary.scheduler.master.RestorePolicy p) {
    switch (p.mode()) {
      case NONE:
        return new RestorePolicy(RestorePolicy.FromEnum.NONE);
      case PATH:
        return new RestorePolicy(RestorePolicy.FromEnum.SAVEPOINT).savepointId(savepointId(p.path()));
      default:
        return new RestorePolicy(RestorePolicy.FromEnum.LATEST);
    }
  }

  /** The savepoint id of a savepoint's metadata path ({@code .../savepoints/sp-7/_metadata}), else the path. */
  static String savepointId(String path) {
    String[] parts = path.split("/");
    for (int i = parts.length - 1; i >= 0; i--) {
      if (parts[i].startsWith(SAVEPOINT_ID_PREFIX)) {
        return parts[i];
      }
    }
    return path;
  }

  /** A checkpoint as its entry describes it; what an entry of an older version lacks stays empty. */
  static Checkpoint checkpoint(CheckpointRef c) {
    CheckpointStore.Summary s = c.summary();
    Checkpoint cp = new Checkpoint(c.id(), SnapshotStatus.COMPLETED, time(triggeredAt(c)))
        .completedAt(time(c.completedAt()));
    if (s != null) {
      cp.durationMillis(s.durationMillis()).alignmentMillis(millis(s.alignmentNanos())).sizeBytes(s.stateBytes())
          .incrementalSizeBytes(s.incrementalBytes()).uploadedBytes(s.uploadedBytes()).parallelism(s.parallelism())
          .inFlightRecords(s.inFlightRecords()).inFlightBytes(s.inFlightBytes());
    }
    return cp;
  }

  /** A savepoint as its entry describes it; what an entry of an older version lacks stays empty. */
  static Savepoint savepoint(CheckpointRef c) {
    CheckpointStore.Summary s = c.summary();
    Savepoint sp = new Savepoint(savepointId(c.path()), SnapshotStatus.COMPLETED, time(triggeredAt(c)))
        .completedAt(time(c.completedAt()));
    if (s != null) {
      if (s.trigger() != null) {
        sp.trigger(Savepoint.TriggerEnum.fromValue(s.trigger()));
      }
      sp.durationMillis(s.durationMillis()).alignmentMillis(millis(s.alignmentNanos())).sizeBytes(s.stateBytes())
          .incrementalSizeBytes(s.incrementalBytes()).uploadedBytes(s.uploadedBytes()).parallelism(s.parallelism())
          .inFlightRecords(s.inFlightRecords()).inFlightBytes(s.inFlightBytes());
    }
    return sp;
  }

  /**
   * When it was triggered: as its entry records it; for entries of older versions, its completion
   * less its duration when known, else its completion.
   */
  private static Instant triggeredAt(CheckpointRef c) {
    CheckpointStore.Summary s = c.summary();
    if (s != null && s.triggeredAtMillis() != null) {
      return Instant.ofEpochMilli(s.triggeredAtMillis());
    }
    return c.completedAt() != null && s != null && s.durationMillis() != null
        ? c.completedAt().minusMillis(s.durationMillis()) : c.completedAt();
  }

  private static Long millis(Long nanos) {
    return nanos == null ? null : java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  static JobEvent event(io.tributary.scheduler.lifecycle.JobEvent e) {
    JobEvent.KindEnum kind;
    switch (e.type()) {
      case CREATED:
      case SPEC_CHANGED:
        kind = JobEvent.KindEnum.SPEC_APPLIED;
        break;
      case RUN_FAILED:
        kind = JobEvent.KindEnum.FAILED;
        break;
      case SAVEPOINT:
        kind = JobEvent.KindEnum.SAVEPOINT_COMPLETED;
        break;
      case CHECKPOINT_FAILED:
        kind = JobEvent.KindEnum.CHECKPOINT_FAILED;
        break;
      case AUTOSCALED:
        kind = JobEvent.KindEnum.RESCALED;
        break;
      default:
        kind = e.to() == io.tributary.scheduler.lifecycle.ObservedState.FAILED ? JobEvent.KindEnum.FAILED
            : JobEvent.KindEnum.STATE_CHANGED;
    }
    JobEvent out = new JobEvent(e.seq(), time(e.time()), kind, e.message());
    if (e.from() != null) {
      out.from(ObservedState.fromValue(e.from().name().toLowerCase(Locale.ROOT)));
    }
    if (e.to() != null) {
      out.to(ObservedState.fromValue(e.to().name().toLowerCase(Locale.ROOT)));
    }
    return out;
  }

  static ExecutionPlan plan(io.tributary.plan.ExecutionPlan p) {
    List<PlanStage> stages = new ArrayList<>();
    for (StagePlan s : p.stages()) {
      List<PlanOperator> ops = new ArrayList<>();
      for (OperatorPlan op : s.operators()) {
        ops.add(new PlanOperator(op.id(), kind(op), PlanPrinter.operator(op)));
      }
      List<PlanLink> links = new ArrayList<>();
      for (ChainLink l : s.links()) {
        PlanLink link = new PlanLink(l.from(), l.to());
        if (l.port() != null) {
          link.port(l.port());
        }
        links.add(link);
      }
      List<KeyGroupRange> ranges = new ArrayList<>();
      boolean keyed = p.inputsOf(s.id()).stream().anyMatch(e -> e.partitioning() == EdgePlan.Partitioning.HASH);
      if (keyed) {
        for (int i = 0; i < s.parallelism(); i++) {
          var r = KeyGroups.rangeFor(p.maxParallelism(), s.parallelism(), i);
          ranges.add(new KeyGroupRange(i, r.start(), r.end()));
        }
      }
      stages.add(new PlanStage(s.id(), s.name(), s.parallelism(), ops, links, ranges));
    }
    List<PlanEdge> edges = new ArrayList<>();
    for (EdgePlan e : p.edges()) {
      PlanEdge edge = new PlanEdge(e.fromStage(), e.fromOperator(), e.toStage(), e.toOperator(),
          PlanEdge.PartitioningEnum.fromValue(e.partitioning().name().toLowerCase(Locale.ROOT)), e.keyFields());
      if (e.port() != null) {
        edge.port(e.port());
      }
      edge.toInput(e.toInput());
      edges.add(edge);
    }
    return new ExecutionPlan(p.jobName(), p.maxParallelism(),
        ExecutionPlan.StateBackendEnum.fromValue(p.stateBackend()), stages, edges);
  }

  private static PlanOperator.KindEnum kind(OperatorPlan op) {
    if (op instanceof SourcePlan) {
      return PlanOperator.KindEnum.SOURCE;
    }
    if (op instanceof SinkPlan) {
      return PlanOperator.KindEnum.SINK;
    }
    if (op instanceof WindowAggregatePlan) {
      return PlanOperator.KindEnum.WINDOW_AGGREGATE;
    }
    if (op instanceof JoinPlan) {
      return PlanOperator.KindEnum.JOIN;
    }
    if (op instanceof GroupAggregatePlan) {
      return PlanOperator.KindEnum.GROUP_AGGREGATE;
    }
    if (op instanceof TopNPlan) {
      return PlanOperator.KindEnum.TOP_N;
    }
    return PlanOperator.KindEnum.TRANSFORM;
  }
}
