package io.tributary.worker.task;

import io.tributary.checkpoint.OperatorState;
import io.tributary.connect.SinkConnector;
import io.tributary.plan.ChainLink;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.GroupAggregatePlan;
import io.tributary.plan.JoinPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TopNPlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.TaskRestore;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateSnapshot;
import io.tributary.worker.aggregate.GroupAggregateOperator;
import io.tributary.worker.join.Joins;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.state.LongCodec;
import io.tributary.worker.state.StateParking;
import io.tributary.worker.topn.TopNOperator;
import io.tributary.worker.timer.TaskTimers;
import io.tributary.worker.timer.TimerSnapshotSource;
import io.tributary.worker.window.WindowOperator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the chain of operators of one task: an operator per plan operator of its stage, linked in
 * the stage's order; a keyed operator gets a state backend and a timer service for the task's key
 * groups (an operator keyed exactly when it has timers, whose namespaces its codec encodes; kept in
 * the backend when it keeps timers, as forst does, else on the heap: {@link TaskTimers#of}),
 * restored from the deployment's handles (keyed state lazily by the backend, forst timers with it,
 * heap timers by ranges, watermarks the lowest of the earlier subtasks'); a sink gets a writer of
 * this attempt.
 */
final class ChainBuilder {
  /** One task's chain: its operators by id in stage order, its outgoing exchanges, what it closes. */
  record Chain(Map<String, ChainNode> byId, List<ExchangeOutput> exchanges, List<AutoCloseable> resources) {
    ChainNode node(String operatorId) {
      return byId.get(operatorId);
    }

    List<ChainNode> nodes() {
      return new ArrayList<>(byId.values());
    }

    /** Releases what the chain opened, when its task will never run. */
    void close() {
      closeQuietly(resources);
    }
  }

  private final ExecutionPlan plan;
  private final TaskGraph.Environment env;
  private final String worker;

  ChainBuilder(ExecutionPlan plan, TaskGraph.Environment env, String worker) {
    this.plan = plan;
    this.env = env;
    this.worker = worker;
  }

  Chain build(StagePlan stage, TaskDeployment task) {
    Map<String, ChainNode> byId = new LinkedHashMap<>();
    List<AutoCloseable> closeables = new ArrayList<>();
    Chain chain = new Chain(byId, new ArrayList<>(), closeables);
    try {
      for (OperatorPlan op : stage.operators()) {
        byId.put(op.id(), createNode(stage, task, op, closeables));
      }
    } catch (RuntimeException e) {
      closeQuietly(closeables);
      throw e;
    }
    for (ChainLink link : stage.links()) {
      ChainNode from = byId.get(link.from());
      ChainNode to = byId.get(link.to());
      if (link.port() == null) {
        from.children.add(to);
      } else {
        from.sideChildren.computeIfAbsent(link.port(), k -> new ArrayList<>()).add(to);
      }
    }
    return chain;
  }

  private ChainNode createNode(StagePlan stage, TaskDeployment task, OperatorPlan op, List<AutoCloseable> closeables) {
    int subtask = task.subtask();
    TaskRestore restore = task.restore();
    KeyedStateBackend state = null;
    StateCodec<?> timerNamespaces = null;
    Operator operator;
    if (op instanceof SourcePlan) {
      operator = new SourceOperator();
    } else if (op instanceof TransformPlan t) {
      operator = new TransformOperator(t);
    } else if (op instanceof WindowAggregatePlan w) {
      operator = new WindowOperator(w);
      timerNamespaces = WindowOperator.namespaceCodec();
    } else if (op instanceof JoinPlan j) {
      operator = Joins.create(j);
      timerNamespaces = Joins.namespaceCodec(j);
    } else if (op instanceof TopNPlan t) {
      operator = new TopNOperator(t);
      timerNamespaces = TopNOperator.namespaceCodec();
    } else if (op instanceof GroupAggregatePlan g) {
      operator = new GroupAggregateOperator(g);
      timerNamespaces = LongCodec.INSTANCE; // it registers none
    } else if (op instanceof SinkPlan s) {
      SinkConnector sink = env.sinks().get(s.id());
      if (sink == null) {
        throw new IllegalArgumentException("the attempt has no connector for sink '" + s.id() + "'");
      }
      operator = env.checkpointing() == null
          ? new SinkOperator(sink.open(subtask, stage.parallelism()), false)
          : new SinkOperator(sink.open(subtask, stage.parallelism(), env.checkpointing().attempt()), true);
    } else {
      throw new IllegalArgumentException("unknown operator kind " + op);
    }
    ChainNode node = new ChainNode(op, operator, subtask);
    if (timerNamespaces != null) {
      state = keyedState(op, task.keyGroups(), restore);
      closeables.add(closeOrPark(node, op, state));
    }
    if (state != null) {
      node.timers = TaskTimers.of(state, timerNamespaces); // in the backend when it keeps timers (forst)
      node.timerNamespaces = timerNamespaces;
    }
    if (restore != null) {
      restoreNode(node, restore.operator(op.id()), task.keyGroups());
    }
    node.context = new TaskOperatorContext(plan.jobName(), op.id(), subtask, stage.parallelism(),
        plan.maxParallelism(), state, node.timers, node.metrics);
    return node;
  }

  private KeyedStateBackend keyedState(OperatorPlan op, KeyGroupRange range, TaskRestore restore) {
    StateBackendFactory factory = env.stateBackends().get(plan.stateBackend());
    if (factory == null) {
      throw new IllegalArgumentException("unknown state backend '" + plan.stateBackend() + "'; available: "
          + env.stateBackends().keySet());
    }
    List<StateSnapshot> snapshots = new ArrayList<>();
    if (restore != null) {
      for (OperatorState s : restore.operator(op.id())) {
        if (s.keyed() != null) {
          snapshots.add(s.keyed());
        }
      }
    }
    if (snapshots.isEmpty()) {
      return factory.create(plan.jobName(), op.id(), range, plan.maxParallelism());
    }
    if (factory instanceof StateParking.Factory parking) {
      // the same key groups on the same worker as in the attempt that ended at this checkpoint
      KeyedStateBackend open = parking.claim(worker, plan.jobName(), op.id(), range, plan.maxParallelism(), snapshots);
      if (open != null) {
        return open;
      }
    }
    return factory.restore(plan.jobName(), op.id(), range, plan.maxParallelism(), snapshots);
  }

  /**
   * What closes a node's keyed state when its task ends: it parks it instead when the task left it
   * exactly as its last snapshot ({@link ChainNode#keepState}) and the factory can park.
   */
  private AutoCloseable closeOrPark(ChainNode node, OperatorPlan op, KeyedStateBackend state) {
    StateBackendFactory factory = env.stateBackends().get(plan.stateBackend());
    return () -> {
      if (node.keepState && node.keyedAt != null && factory instanceof StateParking.Factory parking) {
        parking.park(worker, plan.jobName(), op.id(), state, node.keyedAt);
      } else {
        state.close();
      }
    };
  }

  /** Restores a node's watermark and timers (its keyed state was restored when it was created). */
  private void restoreNode(ChainNode node, List<OperatorState> states, KeyGroupRange range) {
    if (states.isEmpty()) {
      return;
    }
    long watermark = Long.MAX_VALUE;
    for (OperatorState s : states) {
      watermark = Math.min(watermark, s.watermark());
      if (s.timers() != null && node.timers != null) {
        // reads the header and index only: each section when its timers are needed
        node.timers.restore(TimerSnapshotSource.of(env.checkpointing().store(), s.timers()),
            node.timerNamespaces, range, plan.maxParallelism());
      }
    }
    node.watermark = watermark;
    node.pendingWatermark = watermark;
  }

  private static void closeQuietly(List<AutoCloseable> closeables) {
    for (AutoCloseable c : closeables) {
      try {
        c.close();
      } catch (Exception e) {
        // the build failed: the first error is what matters
      }
    }
  }
}
