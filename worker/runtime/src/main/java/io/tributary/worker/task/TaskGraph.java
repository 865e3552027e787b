package io.tributary.worker.task;

import io.tributary.connect.SinkConnector;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.plan.EdgePlan;
import io.tributary.plan.ExecutionPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.TaskDeployment;
import io.tributary.state.StateBackendFactory;
import io.tributary.stream.KeySelector;
import io.tributary.worker.exchange.Buffer;
import io.tributary.worker.exchange.ElementWriter;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.exchange.InboundChannel;
import io.tributary.worker.exchange.InputGate;
import io.tributary.worker.exchange.Projection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the tasks one worker runs of an attempt: one {@link StreamTask} per {@link TaskDeployment}
 * placed on it (its chain built by {@link ChainBuilder}), connected by one channel per (sender
 * subtask, receiver subtask) of each exchange: in-process when both run here, through the
 * {@link Transport} when one end runs on another worker.
 *
 * <p>The deployment decided everything else: which key groups and splits each subtask has, what it
 * restores, where it runs. A receiver's channel from a source subtask that reads no split is known
 * to carry nothing, so it never holds back the receiver's watermark (which keeps the results of a
 * one-file job independent of the parallelism and of timing).
 */
public final class TaskGraph {
  /**
   * What a worker provides to the tasks it builds.
   *
   * @param stateBackends keyed state backends by name; the plan's {@code stateBackend} must be one
   * @param connectors creates the sources
   * @param sinks the attempt's sink connectors by sink id, recovered before any writer opens
   * @param credits buffers a receiver accepts per channel (contract C2)
   * @param checkpointing how tasks take part in checkpoints, or null for none
   * @param listener told when each task ends
   * @param transport channels to and from other workers, or null when every task is on this one
   */
  public record Environment(Map<String, StateBackendFactory> stateBackends, ConnectorFactory connectors,
      Map<String, SinkConnector> sinks, int credits, Checkpointing checkpointing, StreamTask.TaskListener listener,
      Transport transport) {
    public Environment {
      stateBackends = Map.copyOf(stateBackends);
      sinks = Map.copyOf(sinks);
    }

    /** Every task on this worker: in-process channels only. */
    public Environment(Map<String, StateBackendFactory> stateBackends, ConnectorFactory connectors,
        Map<String, SinkConnector> sinks, int credits, Checkpointing checkpointing, StreamTask.TaskListener listener) {
      this(stateBackends, connectors, sinks, credits, checkpointing, listener, null);
    }
  }

  private final AttemptDeployment deployment;
  private final String worker;
  private final ExecutionPlan plan;
  private final Environment env;
  private final ChainBuilder chains;
  /** Per stage, per subtask: the built chain. */
  private final Map<Integer, List<ChainBuilder.Chain>> built = new HashMap<>();
  private final List<StreamTask> tasks = new ArrayList<>();
  private final Map<Integer, List<StreamTask>> tasksByStage = new HashMap<>();
  private final Map<Integer, SourceConnector> sourceConnectors = new HashMap<>();
  private final Map<Integer, Map<String, SourceSplit>> listedSplits = new HashMap<>();

  private TaskGraph(AttemptDeployment deployment, String worker, Environment env) {
    this.deployment = deployment;
    this.worker = worker;
    this.plan = deployment.plan();
    this.env = env;
    this.chains = new ChainBuilder(plan, env, worker);
  }

  /**
   * Builds (without starting them) the tasks {@code worker} runs of {@code deployment}: keyed state
   * and timers are restored for each subtask's key groups, sources resume at their split positions.
   *
   * @throws IllegalArgumentException if a task is placed elsewhere and there is no transport, or the
   *     plan names an unknown state backend
   * @throws RestoreException when a restore handle cannot be used
   */
  public static TaskGraph build(AttemptDeployment deployment, String worker, Environment env) {
    if (env.transport() == null) {
      for (TaskDeployment t : deployment.tasks()) {
        if (!t.worker().equals(worker)) {
          throw new IllegalArgumentException("task " + t.taskId() + " of " + deployment.attempt() + " is placed on "
              + "worker '" + t.worker() + "', but this worker ('" + worker + "') has only in-process channels");
        }
      }
    }
    TaskGraph g = new TaskGraph(deployment, worker, env);
    g.buildChains();
    g.buildTasks();
    return g;
  }

  public List<StreamTask> tasks() {
    return tasks;
  }

  private void buildChains() {
    try {
      for (StagePlan stage : plan.stages()) {
        List<ChainBuilder.Chain> perSubtask = new ArrayList<>();
        built.put(stage.id(), perSubtask);
        for (int i = 0; i < stage.parallelism(); i++) {
          perSubtask.add(local(stage.id(), i) ? chains.build(stage, deployment.task(stage.id(), i)) : null);
        }
      }
    } catch (RuntimeException e) {
      // no task will run: release the state the chains built so far opened
      built.values().forEach(list -> list.stream().filter(java.util.Objects::nonNull)
          .forEach(ChainBuilder.Chain::close));
      throw e;
    }
  }

  private boolean local(int stageId, int subtask) {
    return deployment.task(stageId, subtask).worker().equals(worker);
  }

  private void buildTasks() {
    Map<Integer, Inputs> inputs = new HashMap<>();
    long[] nextChannel = {0};
    for (StagePlan stage : plan.stages()) {
      if (!plan.inputsOf(stage.id()).isEmpty()) {
        inputs.put(stage.id(), connectInputs(stage, nextChannel));
      }
    }
    for (StagePlan stage : plan.stages()) {
      List<StreamTask> ofStage = new ArrayList<>();
      for (int i = 0; i < stage.parallelism(); i++) {
        StreamTask t = local(stage.id(), i) ? createTask(stage, i, inputs.get(stage.id())) : null;
        ofStage.add(t);
        if (t != null) {
          tasks.add(t);
        }
      }
      tasksByStage.put(stage.id(), ofStage);
    }
    // a returned credit wakes the sending task
    built.forEach((stageId, perSubtask) -> {
      for (int i = 0; i < perSubtask.size(); i++) {
        if (perSubtask.get(i) == null) {
          continue;
        }
        StreamTask t = tasksByStage.get(stageId).get(i);
        for (ExchangeOutput out : perSubtask.get(i).exchanges()) {
          out.onCredit(t.mailbox()::wakeup);
        }
      }
    });
  }

  /** The inbound side of one receiving stage: per subtask, its gate, channels and the heads they feed. */
  private record Inputs(List<InputGate> gates, List<List<InboundChannel>> channels, List<List<ChainNode>> heads,
      List<List<Integer>> inputIndexes, List<List<Boolean>> silent, List<List<KeySelector>> keys) {}

  private Inputs connectInputs(StagePlan stage, long[] nextChannel) {
    List<EdgePlan> ins = plan.inputsOf(stage.id());
    int channelsPerReceiver = 0;
    for (EdgePlan e : ins) {
      channelsPerReceiver += e.partitioning() == EdgePlan.Partitioning.FORWARD
          ? 1 : plan.stage(e.fromStage()).parallelism();
    }
    Inputs in = new Inputs(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
        new ArrayList<>(), new ArrayList<>());
    for (int j = 0; j < stage.parallelism(); j++) {
      in.gates().add(new InputGate(channelsPerReceiver));
      in.channels().add(new ArrayList<>());
      in.heads().add(new ArrayList<>());
      in.inputIndexes().add(new ArrayList<>());
      in.silent().add(new ArrayList<>());
      in.keys().add(new ArrayList<>());
    }
    for (EdgePlan e : ins) {
      connect(e, in, nextChannel);
    }
    return in;
  }

  /**
   * Makes the channels of exchange {@code e}, numbered from {@code nextChannel[0]} receiver by
   * receiver, sender by sender, whichever worker each end is on: both ends of a channel must agree
   * on its number.
   */
  private void connect(EdgePlan e, Inputs in, long[] nextChannel) {
    StagePlan from = plan.stage(e.fromStage());
    StagePlan to = plan.stage(e.toStage());
    boolean forward = e.partitioning() == EdgePlan.Partitioning.FORWARD;
    List<List<ElementWriter>> writersBySender = new ArrayList<>();
    for (int i = 0; i < from.parallelism(); i++) {
      writersBySender.add(new ArrayList<>());
    }
    for (int j = 0; j < to.parallelism(); j++) {
      boolean receiverHere = local(to.id(), j);
      ChainNode head = receiverHere ? built.get(to.id()).get(j).node(e.toOperator()) : null;
      for (int i = 0; i < from.parallelism(); i++) {
        if (forward && i != j) {
          continue;
        }
        long id = nextChannel[0]++;
        boolean senderHere = local(from.id(), i);
        int index = in.channels().get(j).size();
        if (receiverHere && senderHere) {
          InProcessChannel c = new InProcessChannel(in.gates().get(j), index, env.credits(), Buffer.DEFAULT_SIZE);
          in.channels().get(j).add(c);
          writersBySender.get(i).add(new ElementWriter(c));
        } else if (receiverHere) {
          in.channels().get(j).add(env.transport().inbound(deployment, id, in.gates().get(j), index));
        } else if (senderHere) {
          in.channels().get(j).add(null); // keeps the numbering of the receiver's gate; not used here
          writersBySender.get(i).add(new ElementWriter(
              env.transport().outbound(deployment, id, deployment.task(to.id(), j))));
        } else {
          in.channels().get(j).add(null);
        }
        if (receiverHere) {
          in.heads().get(j).add(head);
          in.inputIndexes().get(j).add(e.toInput());
          in.silent().get(j).add(readsNothing(from, i));
          in.keys().get(j).add(e.partitioning() == EdgePlan.Partitioning.HASH ? new KeySelector(e.keyFields()) : null);
        }
      }
    }
    for (int i = 0; i < from.parallelism(); i++) {
      ChainBuilder.Chain sender = built.get(from.id()).get(i);
      if (sender == null) {
        continue;
      }
      // a projection per sender: it caches positions per schema, and senders run on threads of their own
      Projection projection = Projection.forReceiver(to.operator(e.toOperator()));
      ExchangeOutput out = new ExchangeOutput(e, writersBySender.get(i), plan.maxParallelism(), i, projection);
      ChainNode src = sender.node(e.fromOperator());
      if (e.port() == null) {
        src.exchanges.add(out);
      } else {
        src.sideExchanges.computeIfAbsent(e.port(), k -> new ArrayList<>()).add(out);
      }
      sender.exchanges().add(out);
    }
  }

  /**
   * How many splits the subtasks of source stage {@code stage} read together: the source's
   * {@code maxRecordsPerSecond} is shared by its splits, so that a source of fewer splits than
   * subtasks (one file read at parallelism 3) still reads at its whole rate.
   */
  private int splitsOf(StagePlan stage) {
    int n = 0;
    for (int j = 0; j < stage.parallelism(); j++) {
      n += deployment.task(stage.id(), j).splits().size();
    }
    return Math.max(1, n);
  }

  private StreamTask createTask(StagePlan stage, int i, Inputs inputs) {
    ChainBuilder.Chain chain = built.get(stage.id()).get(i);
    TaskDeployment d = deployment.task(stage.id(), i);
    List<ChainNode> heads = new ArrayList<>();
    TaskInput input;
    if (stage.operators().get(0) instanceof SourcePlan sp) {
      ChainNode head = chain.node(sp.id());
      heads.add(head);
      SourceConnector connector = sourceConnector(stage, sp);
      List<SourceSplit> mine = new ArrayList<>();
      for (String id : d.splits()) {
        mine.add(split(stage, connector, id));
      }
      double rate = sp.maxRecordsPerSecond() > 0 ? sp.maxRecordsPerSecond() * mine.size() / splitsOf(stage) : 0;
      input = new SourceInput(sp, connector, mine, head, rate, d.restore() == null ? Map.of() : d.restore().splits());
    } else {
      List<ChainNode> hd = inputs.heads().get(i);
      for (ChainNode h : hd) {
        if (!heads.contains(h)) {
          heads.add(h);
        }
      }
      List<Boolean> silent = inputs.silent().get(i);
      boolean[] ended = new boolean[silent.size()];
      for (int c = 0; c < ended.length; c++) {
        ended[c] = silent.get(c);
      }
      int[] inputIndexes = inputs.inputIndexes().get(i).stream().mapToInt(Integer::intValue).toArray();
      Checkpointing cp = env.checkpointing();
      GateInput.Unaligned unaligned = cp == null || !cp.aligned() || !cp.unaligned() ? null
          : new GateInput.Unaligned(cp.alignmentTimeoutNanos(),
              inputs.keys().get(i).toArray(new KeySelector[0]), plan.maxParallelism());
      GateInput gate = new GateInput(inputs.gates().get(i), inputs.channels().get(i).toArray(new InboundChannel[0]),
          hd.toArray(new ChainNode[0]), inputIndexes, ended, cp == null || cp.aligned(), unaligned,
          chain.nodes().stream().anyMatch(n -> n.timers != null) ? WatermarkAlignment.maxDriftMillis() : 0);
      if (d.restore() != null) {
        gate.replay(InFlightReplay.of(d, stage.parallelism(), heads, cp));
      }
      input = gate;
    }
    InFlightReplay.requireHeads(d, heads, chain.nodes());
    String name = stage.name() + " (" + (i + 1) + "/" + stage.parallelism() + ")";
    StreamTask task = new StreamTask(name, stage.id(), i, input, chain.nodes(), heads, chain.exchanges(),
        chain.resources(), env.listener());
    if (env.checkpointing() != null) {
      task.checkpointer(new TaskCheckpointer(env.checkpointing(), plan.jobName(), stage.id(), i, stage.parallelism()));
    }
    return task;
  }

  private SourceConnector sourceConnector(StagePlan stage, SourcePlan sp) {
    return sourceConnectors.computeIfAbsent(stage.id(), k -> env.connectors().source(sp));
  }

  /**
   * The split with id {@code id}: as the source lists it now, else as the source recreates it from
   * its id (a checkpoint's split that the current listing no longer has).
   */
  private SourceSplit split(StagePlan stage, SourceConnector connector, String id) {
    Map<String, SourceSplit> listed = listedSplits.computeIfAbsent(stage.id(), k -> {
      Map<String, SourceSplit> byId = new HashMap<>();
      for (SourceSplit s : connector.splits(stage.parallelism())) {
        byId.put(s.id(), s);
      }
      return byId;
    });
    SourceSplit s = listed.containsKey(id) ? listed.get(id) : connector.splitOf(id);
    if (s == null) {
      throw new RestoreException("source '" + stage.operators().get(0).id() + "' cannot resume split '" + id
          + "'; restore at the parallelism it was taken with, or start without state");
    }
    return s;
  }

  /** Whether subtask {@code i} of {@code stage} is a source subtask that reads no split: it ends at once. */
  private boolean readsNothing(StagePlan stage, int i) {
    return stage.operators().get(0) instanceof SourcePlan && deployment.task(stage.id(), i).splits().isEmpty();
  }
}
