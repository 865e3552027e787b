package io.tributary.worker.task;

import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.plan.ChainLink;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.plan.TransformPlan;
import io.tributary.plan.WindowAggregatePlan;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.OperatorState;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.StateSnapshot;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateBackendFactory;
import io.tributary.worker.exchange.Buffer;
import io.tributary.worker.exchange.ElementWriter;
import io.tributary.worker.exchange.Projection;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;
import io.tributary.worker.operator.Operator;
import io.tributary.worker.timer.HeapTimerService;
import io.tributary.worker.timer.TimerSnapshotSource;
import io.tributary.worker.window.WindowOperator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an {@link ExecutionPlan} into the tasks of one process: one {@link StreamTask} per (stage,
 * subtask), connected by in-process channels.
 */
public final class TaskGraph {
  private final ExecutionPlan plan;
  private final Map<String, StateBackendFactory> stateBackends;
  private final ConnectorFactory connectors;
  private final int credits;
  private final int bufferSize;
  private final StreamTask.TaskListener listener;
  /** Per stage, per subtask: the operators by id. */
  private final Map<Integer, List<Map<String, ChainNode>>> nodes = new HashMap<>();
  private final Map<Integer, List<List<ExchangeOutput>>> exchanges = new HashMap<>();
  private final Map<Integer, List<List<AutoCloseable>>> resources = new HashMap<>();
  private final List<StreamTask> tasks = new ArrayList<>();
  private final Map<Integer, List<StreamTask>> tasksByStage = new HashMap<>();
  /** Per receiving (stage, subtask): whether each inbound channel's sender is a source subtask without splits. */
  private final Map<Integer, List<List<Boolean>>> silentChannels = new HashMap<>();
  private final Map<Integer, List<? extends SourceSplit>> sourceSplits = new HashMap<>();
  private final Checkpointing checkpointing;
  private final CheckpointMetadata restore;
  private final Map<String, SinkConnector> sinkConnectors = new LinkedHashMap<>();

  private TaskGraph(ExecutionPlan plan, Map<String, StateBackendFactory> stateBackends,
      ConnectorFactory connectors, int credits, int bufferSize, StreamTask.TaskListener listener,
      Checkpointing checkpointing) {
    this.checkpointing = checkpointing;
    this.restore = checkpointing == null ? null : checkpointing.restore();
    this.plan = plan;
    this.stateBackends = stateBackends;
    this.connectors = connectors;
    this.credits = credits;
    this.bufferSize = bufferSize;
    this.listener = listener;
  }

  /**
   * Builds the tasks of {@code plan} (not started).
   *
   * @param stateBackends keyed state backends by name; the plan's {@code stateBackend} must be one
   * @param connectors creates the sources and sinks
   * @param credits buffers a receiver accepts per channel
   */
  public static List<StreamTask> build(ExecutionPlan plan, Map<String, StateBackendFactory> stateBackends,
      ConnectorFactory connectors, int credits, StreamTask.TaskListener listener) {
    return build(plan, stateBackends, connectors, credits, listener, null).tasks();
  }

  /**
   * Builds the tasks of {@code plan} (not started), taking part in checkpoints when
   * {@code checkpointing} is not null and starting from its restore checkpoint if it has one:
   * keyed state and timers are restored for each subtask's key groups whatever the earlier
   * parallelism (contract C7), sources resume at their split positions, and every sink recovers
   * (commits the restored pre-commits, removes what earlier attempts left pending) before its
   * writers open.
   *
   * @throws RestoreException when the checkpoint cannot be restored into this plan
   */
  public static TaskGraph build(ExecutionPlan plan, Map<String, StateBackendFactory> stateBackends,
      ConnectorFactory connectors, int credits, StreamTask.TaskListener listener, Checkpointing checkpointing) {
    TaskGraph g = new TaskGraph(plan, stateBackends, connectors, credits, Buffer.DEFAULT_SIZE, listener,
        checkpointing);
    g.checkRestorable();
    g.buildNodes();
    g.buildTasks();
    return g;
  }

  public List<StreamTask> tasks() {
    return tasks;
  }

  /** The sinks by operator id, for committing completed checkpoints. */
  public Map<String, SinkConnector> sinks() {
    return sinkConnectors;
  }

  private void checkRestorable() {
    if (restore == null) {
      return;
    }
    if (restore.maxParallelism() != plan.maxParallelism()) {
      throw new RestoreException("the job's maxParallelism is " + plan.maxParallelism() + " but " + restore.kind()
          + " " + restore.id() + " was taken with maxParallelism " + restore.maxParallelism()
          + "; keyed state cannot move between different numbers of key groups. Set maxParallelism back to "
          + restore.maxParallelism() + ", or start without state");
    }
    java.util.Set<String> ops = new java.util.HashSet<>();
    for (StagePlan st : plan.stages()) {
      for (OperatorPlan op : st.operators()) {
        ops.add(op.id());
      }
    }
    for (io.tributary.checkpoint.TaskState t : restore.tasks()) {
      for (Map.Entry<String, io.tributary.checkpoint.OperatorState> e : t.operators().entrySet()) {
        if (e.getValue().keyed() != null && !ops.contains(e.getKey())) {
          throw new RestoreException(restore.kind() + " " + restore.id() + " holds state of operator '" + e.getKey()
              + "', which this job no longer has; keep the operator's id, or start without state");
        }
      }
    }
  }

  private void buildNodes() {
    for (StagePlan stage : plan.stages()) {
      List<Map<String, ChainNode>> perSubtask = new ArrayList<>();
      List<List<AutoCloseable>> res = new ArrayList<>();
      for (int i = 0; i < stage.parallelism(); i++) {
        Map<String, ChainNode> byId = new LinkedHashMap<>();
        List<AutoCloseable> closeables = new ArrayList<>();
        for (OperatorPlan op : stage.operators()) {
          byId.put(op.id(), createNode(stage, i, op, closeables));
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
        perSubtask.add(byId);
        res.add(closeables);
      }
      nodes.put(stage.id(), perSubtask);
      resources.put(stage.id(), res);
      List<List<ExchangeOutput>> ex = new ArrayList<>();
      for (int i = 0; i < stage.parallelism(); i++) {
        ex.add(new ArrayList<>());
      }
      exchanges.put(stage.id(), ex);
    }
  }

  private ChainNode createNode(StagePlan stage, int subtask, OperatorPlan op, List<AutoCloseable> closeables) {
    KeyedStateBackend state = null;
    Operator operator;
    if (op instanceof SourcePlan) {
      operator = new SourceOperator();
    } else if (op instanceof TransformPlan t) {
      operator = new TransformOperator(t);
    } else if (op instanceof WindowAggregatePlan w) {
      operator = new WindowOperator(w);
      StateBackendFactory factory = stateBackends.get(plan.stateBackend());
      if (factory == null) {
        throw new IllegalArgumentException("unknown state backend '" + plan.stateBackend()
            + "'; available: " + stateBackends.keySet());
      }
      KeyGroupRange range = KeyGroups.rangeFor(plan.maxParallelism(), stage.parallelism(), subtask);
      List<StateSnapshot> snapshots = new ArrayList<>();
      if (restore != null) {
        for (OperatorState s : restore.operator(op.id())) {
          if (s.keyed() != null) {
            snapshots.add(s.keyed());
          }
        }
      }
      state = snapshots.isEmpty()
          ? factory.create(plan.jobName(), op.id(), range, plan.maxParallelism())
          : factory.restore(plan.jobName(), op.id(), range, plan.maxParallelism(), snapshots);
      closeables.add(state);
    } else if (op instanceof SinkPlan s) {
      SinkConnector sink = sinkConnector(s);
      operator = checkpointing == null
          ? new SinkOperator(sink.open(subtask, stage.parallelism()), false)
          : new SinkOperator(sink.open(subtask, stage.parallelism(), checkpointing.attempt()), true);
    } else {
      throw new IllegalArgumentException("unknown operator kind " + op);
    }
    ChainNode node = new ChainNode(op, operator, subtask);
    if (state != null) {
      node.timers = new HeapTimerService(state);
    }
    if (restore != null) {
      restoreNode(node, KeyGroups.rangeFor(plan.maxParallelism(), stage.parallelism(), subtask));
    }
    node.context = new TaskOperatorContext(plan.jobName(), op.id(), subtask, stage.parallelism(),
        plan.maxParallelism(), state, node.timers, node.metrics);
    return node;
  }

  /** Restores a node's watermark and timers (its keyed state was restored when it was created). */
  private void restoreNode(ChainNode node, KeyGroupRange range) {
    List<OperatorState> states = restore.operator(node.plan.id());
    if (states.isEmpty()) {
      return;
    }
    long watermark = Long.MAX_VALUE;
    for (OperatorState s : states) {
      watermark = Math.min(watermark, s.watermark());
      if (s.timers() != null && node.timers != null) {
        // reads the header and index only: each section when its timers are needed
        node.timers.restore(TimerSnapshotSource.of(checkpointing.store(), s.timers()), WindowOperator.namespaceCodec(),
            range, plan.maxParallelism());
      }
    }
    node.watermark = watermark;
    node.pendingWatermark = watermark;
  }

  private SinkConnector sinkConnector(SinkPlan s) {
    SinkConnector existing = sinkConnectors.get(s.id());
    if (existing != null) {
      return existing;
    }
    SinkConnector sink = connectors.sink(s);
    if (checkpointing != null) {
      List<String> committables = restore == null
          ? List.of() : restore.committables().getOrDefault(s.id(), List.of());
      int previous = Math.max(checkpointing.previousMaxParallelism(),
          restore == null ? 0 : restore.parallelismOf(s.id()));
      sink.recover(committables, previous, checkpointing.attempt());
    }
    sinkConnectors.put(s.id(), sink);
    return sink;
  }

  private void buildTasks() {
    // inbound channels per (stage, subtask), in gate order
    Map<Integer, List<List<InProcessChannel>>> inbound = new HashMap<>();
    Map<Integer, List<List<ChainNode>>> inboundHeads = new HashMap<>();
    Map<Integer, List<InputGate>> gates = new HashMap<>();
    for (StagePlan stage : plan.stages()) {
      List<EdgePlan> ins = plan.inputsOf(stage.id());
      if (ins.isEmpty()) {
        continue;
      }
      int channelsPerReceiver = 0;
      for (EdgePlan e : ins) {
        channelsPerReceiver += e.partitioning() == EdgePlan.Partitioning.FORWARD
            ? 1 : plan.stage(e.fromStage()).parallelism();
      }
      List<InputGate> g = new ArrayList<>();
      List<List<InProcessChannel>> ch = new ArrayList<>();
      List<List<ChainNode>> hd = new ArrayList<>();
      for (int j = 0; j < stage.parallelism(); j++) {
        g.add(new InputGate(channelsPerReceiver));
        ch.add(new ArrayList<>());
        hd.add(new ArrayList<>());
      }
      gates.put(stage.id(), g);
      List<List<Boolean>> silent = new ArrayList<>();
      for (int j = 0; j < stage.parallelism(); j++) {
        silent.add(new ArrayList<>());
      }
      silentChannels.put(stage.id(), silent);
      inbound.put(stage.id(), ch);
      inboundHeads.put(stage.id(), hd);
      for (EdgePlan e : ins) {
        connect(e, g, ch, hd);
      }
    }
    for (StagePlan stage : plan.stages()) {
      List<StreamTask> ofStage = new ArrayList<>();
      for (int i = 0; i < stage.parallelism(); i++) {
        ofStage.add(createTask(stage, i, gates.get(stage.id()), inbound.get(stage.id()), inboundHeads.get(stage.id())));
      }
      tasksByStage.put(stage.id(), ofStage);
      tasks.addAll(ofStage);
    }
    // a returned credit wakes the sending task
    for (Map.Entry<Integer, List<List<ExchangeOutput>>> e : exchanges.entrySet()) {
      for (int i = 0; i < e.getValue().size(); i++) {
        StreamTask t = taskOf(e.getKey(), i);
        for (ExchangeOutput out : e.getValue().get(i)) {
          out.onCredit(t.mailbox()::wakeup);
        }
      }
    }
  }

  private void connect(EdgePlan e, List<InputGate> gates, List<List<InProcessChannel>> channels,
      List<List<ChainNode>> heads) {
    StagePlan from = plan.stage(e.fromStage());
    StagePlan to = plan.stage(e.toStage());
    boolean forward = e.partitioning() == EdgePlan.Partitioning.FORWARD;
    List<List<ElementWriter>> writersBySender = new ArrayList<>();
    for (int i = 0; i < from.parallelism(); i++) {
      writersBySender.add(new ArrayList<>());
    }
    for (int j = 0; j < to.parallelism(); j++) {
      ChainNode head = nodes.get(to.id()).get(j).get(e.toOperator());
      for (int i = 0; i < from.parallelism(); i++) {
        if (forward && i != j) {
          continue;
        }
        int index = channels.get(j).size();
        InProcessChannel c = new InProcessChannel(gates.get(j), index, credits, bufferSize);
        channels.get(j).add(c);
        heads.get(j).add(head);
        silentChannels.get(to.id()).get(j).add(hasNoSplits(from, i));
        writersBySender.get(i).add(new ElementWriter(c));
      }
    }
    for (int i = 0; i < from.parallelism(); i++) {
      ChainNode src = nodes.get(from.id()).get(i).get(e.fromOperator());
      ExchangeOutput out = new ExchangeOutput(e, writersBySender.get(i), plan.maxParallelism(), i,
          projectionFor(to.operator(e.toOperator())));
      if (e.port() == null) {
        src.exchanges.add(out);
      } else {
        src.sideExchanges.computeIfAbsent(e.port(), k -> new ArrayList<>()).add(out);
      }
      exchanges.get(from.id()).get(i).add(out);
    }
  }

  private StreamTask createTask(StagePlan stage, int i, List<InputGate> gates,
      List<List<InProcessChannel>> inbound, List<List<ChainNode>> inboundHeads) {
    Map<String, ChainNode> byId = nodes.get(stage.id()).get(i);
    List<ChainNode> ordered = new ArrayList<>(byId.values());
    TaskInput input;
    List<ChainNode> heads = new ArrayList<>();
    OperatorPlan first = stage.operators().get(0);
    if (first instanceof SourcePlan sp) {
      ChainNode head = byId.get(sp.id());
      heads.add(head);
      SourceConnector connector = sourceConnector(stage, sp);
      List<SourceSplit> mine = new ArrayList<>();
      List<? extends SourceSplit> all = splitsOf(stage);
      for (int s = 0; s < all.size(); s++) {
        if (s % stage.parallelism() == i) {
          mine.add(all.get(s));
        }
      }
      double rate = sp.maxRecordsPerSecond() > 0 ? sp.maxRecordsPerSecond() / stage.parallelism() : 0;
      input = new SourceInput(sp, connector, mine, head, rate,
          restore == null ? Map.of() : restore.splits(sp.id()));
    } else {
      List<InProcessChannel> ch = inbound.get(i);
      List<ChainNode> hd = inboundHeads.get(i);
      for (ChainNode h : hd) {
        if (!heads.contains(h)) {
          heads.add(h);
        }
      }
      List<Boolean> silent = silentChannels.get(stage.id()).get(i);
      boolean[] ended = new boolean[silent.size()];
      for (int c = 0; c < ended.length; c++) {
        ended[c] = silent.get(c);
      }
      input = new GateInput(gates.get(i), ch.toArray(new InboundChannel[0]), hd.toArray(new ChainNode[0]), ended,
          checkpointing == null || checkpointing.aligned());
    }
    String name = stage.name() + " (" + (i + 1) + "/" + stage.parallelism() + ")";
    StreamTask task = new StreamTask(name, stage.id(), i, input, ordered, heads,
        exchanges.get(stage.id()).get(i), resources.get(stage.id()).get(i), listener);
    if (checkpointing != null) {
      task.checkpointer(new TaskCheckpointer(checkpointing, plan.jobName(), stage.id(), i, stage.parallelism()));
    }
    return task;
  }

  private final Map<Integer, SourceConnector> sourceConnectors = new HashMap<>();

  private SourceConnector sourceConnector(StagePlan stage, SourcePlan sp) {
    return sourceConnectors.computeIfAbsent(stage.id(), k -> connectors.source(sp));
  }

  /**
   * The fields a receiving operator reads, when it reads fewer than it is sent: a window without a
   * late output needs only its key fields and aggregate arguments (event time travels with the
   * record). Null: send everything.
   */
  static Projection projectionFor(OperatorPlan receiver) {
    if (!(receiver instanceof WindowAggregatePlan w) || w.lateOutput() != null) {
      return null;
    }
    java.util.LinkedHashSet<String> fields = new java.util.LinkedHashSet<>(w.keyBy());
    for (io.tributary.plan.AggregatePlan a : w.aggregates()) {
      if (a.argument() != null) {
        fields.addAll(io.tributary.expr.Expressions.referencedFields(a.argument()));
      }
    }
    return new Projection(new ArrayList<>(fields));
  }

  private List<? extends SourceSplit> splitsOf(StagePlan stage) {
    SourcePlan sp = (SourcePlan) stage.operators().get(0);
    return sourceSplits.computeIfAbsent(stage.id(), k -> {
      SourceConnector connector = sourceConnector(stage, sp);
      List<? extends SourceSplit> current = connector.splits(stage.parallelism());
      java.util.Set<String> restoredIds = restore == null ? java.util.Set.of() : restore.splits(sp.id()).keySet();
      if (restoredIds.isEmpty()) {
        return current;
      }
      // resume the checkpoint's splits whatever the parallelism now (C7 for sources)
      Map<String, SourceSplit> byId = new LinkedHashMap<>();
      for (SourceSplit s : current) {
        byId.put(s.id(), s);
      }
      List<SourceSplit> out = new ArrayList<>();
      for (String id : restoredIds) {
        SourceSplit s = byId.containsKey(id) ? byId.get(id) : connector.splitOf(id);
        if (s == null) {
          throw new RestoreException("source '" + sp.id() + "' cannot resume split '" + id + "' of " + restore.kind()
              + " " + restore.id() + "; restore at the parallelism it was taken with, or start without state");
        }
        out.add(s);
      }
      if (!connector.splitsFollowParallelism()) {
        for (SourceSplit s : current) {
          if (!restoredIds.contains(s.id())) {
            out.add(s); // appeared since the checkpoint
          }
        }
      }
      return out;
    });
  }

  /**
   * Whether subtask {@code i} of {@code stage} is a source subtask that has no split: it ends at
   * once, so receivers need not wait for it before their watermark moves (which keeps results of
   * a one-file job independent of the parallelism and of timing).
   */
  private boolean hasNoSplits(StagePlan stage, int i) {
    if (!(stage.operators().get(0) instanceof SourcePlan)) {
      return false;
    }
    return splitsOf(stage).size() <= i;
  }

  private StreamTask taskOf(int stageId, int subtask) {
    return tasksByStage.get(stageId).get(subtask);
  }

}
