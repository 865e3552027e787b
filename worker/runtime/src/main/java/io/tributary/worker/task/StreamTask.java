package io.tributary.worker.task;

import io.tributary.stream.Barrier;
import io.tributary.stream.EndOfInput;
import io.tributary.stream.IdleStatus;
import io.tributary.stream.Record;
import io.tributary.stream.StreamElement;
import io.tributary.stream.Watermark;
import io.tributary.worker.operator.OperatorMetrics;
import io.tributary.worker.operator.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * One subtask of a stage: a thread that runs a mailbox loop over its input, its chain of operators
 * and its outgoing exchanges. Records, watermarks, timers, barriers and control mail are all handled
 * on this thread.
 *
 * <p>Backpressure: before taking more input, and between two timer firings, the task checks that no
 * outgoing buffer waits for credit; if one does, it waits for credit mail. So what waits is at most
 * the output of one input element (contract C2).
 *
 * <pre>
 *   CREATED -> RUNNING -> FINISHING -> FINISHED
 *                  \-------------\---> FAILED | CANCELLED
 * </pre>
 */
public final class StreamTask implements Runnable {
  private final String name;
  private final int stageId;
  private final int subtaskIndex;
  private final TaskInput input;
  private final List<ChainNode> nodes; // topological order
  private final List<ChainNode> heads;
  private final List<ExchangeOutput> allExchanges;
  private final Mailbox mailbox = new Mailbox();
  private final TaskCounters counters = new TaskCounters();
  private final TaskTimes times = new TaskTimes();
  private final TaskListener listener;
  private final List<AutoCloseable> resources;
  private volatile boolean cancelled;
  private boolean idle;
  private long recordsIn;
  private long lastBarrier = Long.MIN_VALUE;
  private TaskCheckpointer checkpointer;
  /** Input ended: no barrier may be injected any more. */
  private boolean inputEnded;
  private long pendingAlignmentNanos;
  /**
   * Whether the operators' state may differ from the task's last checkpoint (true until its first
   * barrier, and once it takes input or applies a watermark after one).
   */
  private boolean changedSinceBarrier = true;
  /** While not 0: the source reads nothing until this time ({@code System.nanoTime()}). */
  private long stoppedUntilNanos;
  /** How long a source stopped at a checkpoint waits to be cancelled before it reads again. */
  static final long STOP_AT_BARRIER_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(1);

  /** Told when the task ends. */
  public interface TaskListener {
    void finished(StreamTask task);

    void failed(StreamTask task, Throwable error);
  }

  StreamTask(String name, TaskInput input, List<ChainNode> nodes, List<ChainNode> heads,
      List<ExchangeOutput> allExchanges, List<AutoCloseable> resources, TaskListener listener) {
    this(name, 0, 0, input, nodes, heads, allExchanges, resources, listener);
  }

  StreamTask(String name, int stageId, int subtaskIndex, TaskInput input, List<ChainNode> nodes,
      List<ChainNode> heads, List<ExchangeOutput> allExchanges, List<AutoCloseable> resources,
      TaskListener listener) {
    this.name = name;
    this.stageId = stageId;
    this.subtaskIndex = subtaskIndex;
    this.input = input;
    this.nodes = nodes;
    this.heads = heads;
    this.allExchanges = allExchanges;
    this.resources = resources;
    this.listener = listener;
  }

  /** The task's outgoing exchanges (tests). */
  List<ExchangeOutput> exchanges() {
    return allExchanges;
  }

  public String name() {
    return name;
  }

  public Mailbox mailbox() {
    return mailbox;
  }

  public TaskCounters counters() {
    return counters;
  }

  /** The id of the stage this task runs a subtask of. */
  public int stageId() {
    return stageId;
  }

  public int subtaskIndex() {
    return subtaskIndex;
  }

  /** Where the task's thread spent its time: busy, idle, backpressured. */
  public TaskTimes times() {
    return times;
  }

  /**
   * The task's operators in chain order, with their counters and output samples, as last published
   * (every 1024 input records and whenever the task waits). Any thread.
   */
  public List<OperatorView> operators() {
    List<OperatorView> out = new ArrayList<>(nodes.size());
    for (ChainNode n : nodes) {
      out.add(new OperatorView(n.plan == null ? "?" : n.plan.id(), n.metrics, n.tap));
    }
    return out;
  }

  /** One operator of a task: its id in the plan, its counters, and a sample of its output. */
  public record OperatorView(String operatorId, OperatorMetrics metrics, OutputTap tap) {}

  /** Where this task's records come from: its source's splits, or its input gates. */
  TaskInput input() {
    return input;
  }

  List<ChainNode> nodes() {
    return nodes;
  }

  void checkpointer(TaskCheckpointer checkpointer) {
    this.checkpointer = checkpointer;
  }

  /** The positions of this task's source splits; empty for other tasks. Task thread. */
  List<io.tributary.checkpoint.SplitState> splitStates() {
    return input instanceof SourceInput s ? s.splitStates() : List.of();
  }

  /**
   * Starts checkpoint {@code checkpointId} at this source task: on the task thread, between two
   * reads, it snapshots its split positions and sends the barrier downstream. Ignored once the
   * input ended (the task's final state stands for it then). Any thread.
   */
  public void triggerCheckpoint(long checkpointId) {
    triggerCheckpoint(checkpointId, false);
  }

  /**
   * Like {@link #triggerCheckpoint(long)}; with {@code stop} the source reads nothing more after
   * the barrier, since its attempt is to end at this checkpoint: so no task downstream takes input
   * after it either, and their state stays the checkpoint's (see {@link ChainNode#keepState}). The
   * source reads again if it is not cancelled within {@link #STOP_AT_BARRIER_NANOS}. Any thread.
   */
  public void triggerCheckpoint(long checkpointId, boolean stop) {
    mailbox.send(() -> {
      if (!inputEnded && checkpointId > lastBarrier) {
        processBarrier(checkpointId);
        if (stop) {
          stoppedUntilNanos = System.nanoTime() + STOP_AT_BARRIER_NANOS;
        }
      }
    });
  }

  /** The time the last aligned barrier waited for the slowest channel. */
  void alignmentNanos(long nanos) {
    counters.alignmentNanos = nanos;
    pendingAlignmentNanos = nanos;
  }

  /** Whether this task reads source splits. */
  public boolean isSource() {
    return input instanceof SourceInput;
  }

  /** Records dropped as late by this task's operators. */
  public long lateDropped() {
    return nodes.stream().mapToLong(n -> n.metrics.lateDropped()).sum();
  }

  /** Malformed records counted by this task's operators. */
  public long malformed() {
    return nodes.stream().mapToLong(n -> n.metrics.malformed()).sum();
  }

  /** Stops the task at its next step. Any thread. */
  public void cancel() {
    cancelled = true;
    mailbox.wakeup();
  }

  @Override
  public void run() {
    mailbox.bindToCurrentThread();
    times.start(System.nanoTime());
    Throwable failure = null;
    try {
      openAll();
      input.open(this);
      publish(); // also lets the output samples take the first records
      loop();
      finishAll();
      if (checkpointer != null) {
        checkpointer.finished(this);
      }
    } catch (Throwable t) {
      failure = t;
      if (cancelled && t instanceof CancellationException && !changedSinceBarrier) {
        for (ChainNode n : nodes) {
          n.keepState = true; // cancelled with the state of its last checkpoint: the next attempt may go on with it
        }
      }
    } finally {
      closeAll();
      times.stop(System.nanoTime());
    }
    // only now: whoever waits for the task may rely on its resources being released
    if (failure == null) {
      counters.finished = true;
      publish();
      listener.finished(this);
    } else {
      listener.failed(this, failure);
    }
  }

  private void loop() {
    while (true) {
      checkCancelled();
      mailbox.runMail();
      if (!outputsAvailable() && !drainOutputs()) {
        // a barrier that overtook the input does not wait for credit either, nor does an alignment
        // that times out: it turns unaligned while the task is backpressured
        input.pollPriority();
        await(TaskTimes.Wait.CREDIT, input.maxCreditWaitNanos());
        continue;
      }
      if (stoppedUntilNanos != 0) {
        long left = stoppedUntilNanos - System.nanoTime();
        if (left > 0) {
          flushOutputs();
          await(TaskTimes.Wait.INPUT, left);
          continue;
        }
        stoppedUntilNanos = 0;
      }
      if (firePendingWatermarks()) {
        continue;
      }
      if (inputEnded) {
        return;
      }
      int r = input.step();
      if (r == TaskInput.END) {
        inputEnded = true;
      } else if (r == TaskInput.NOTHING) {
        flushOutputs();
        await(TaskTimes.Wait.INPUT, input.maxWaitNanos());
      }
    }
  }

  /** Publishes the counters, then waits for mail or a wake-up, accounting the time to {@code what}. */
  private void await(TaskTimes.Wait what, long maxWaitNanos) {
    long now = publish();
    times.beginWait(what, now);
    try {
      mailbox.await(maxWaitNanos);
    } finally {
      times.endWait(System.nanoTime());
    }
  }

  // ---- called by inputs, on the task thread ----

  /** Whether the task can take another input element now. */
  boolean canTakeInput() {
    return !hasPendingWatermark() && outputsAvailable();
  }

  void processRecord(ChainNode head, Record record) {
    processRecord(head, 0, record);
  }

  /** A record for input {@code input} of chain head {@code head}. */
  void processRecord(ChainNode head, int input, Record record) {
    if ((++recordsIn & 1023) == 0) {
      publish();
    }
    changedSinceBarrier = true;
    if (idle) {
      setIdle(false);
    }
    head.process(input, record);
  }

  /** The task's combined input watermark advanced. */
  void advanceWatermark(long watermark) {
    if (idle) {
      setIdle(false);
    }
    for (ChainNode h : heads) {
      h.offerWatermark(watermark);
    }
    counters.watermark = watermark;
  }

  /** Every active input went idle, or one came back. */
  void setIdle(boolean nowIdle) {
    if (idle == nowIdle) {
      return;
    }
    idle = nowIdle;
    counters.idle = nowIdle;
    StreamElement status = nowIdle ? IdleStatus.IDLE : IdleStatus.ACTIVE;
    for (ExchangeOutput e : allExchanges) {
      e.broadcast(status);
    }
  }

  void processBarrier(long checkpointId) {
    processBarrier(checkpointId, null);
  }

  /**
   * Takes the task's part of checkpoint {@code checkpointId} and forwards its barrier: with priority
   * when the checkpoint is unaligned here ({@code inFlight} not null: the input completes it with the
   * records it logs) or when the task's checkpoints are unaligned from the start, else in-band.
   */
  void processBarrier(long checkpointId, java.util.concurrent.CompletableFuture<InFlightLog.Sealed> inFlight) {
    if (checkpointId <= lastBarrier) {
      throw new IllegalStateException("barrier " + checkpointId + " after " + lastBarrier + " in " + name);
    }
    lastBarrier = checkpointId;
    for (ChainNode n : nodes) {
      n.operator.onBarrier(checkpointId);
    }
    if (checkpointer != null) {
      checkpointer.snapshot(checkpointId, this, pendingAlignmentNanos, inFlight);
      pendingAlignmentNanos = 0;
      changedSinceBarrier = false;
    }
    if (inFlight != null || (checkpointer != null && checkpointer.priorityBarriers())) {
      for (ExchangeOutput e : allExchanges) {
        e.broadcastPriorityBarrier(checkpointId);
      }
      return;
    }
    Barrier barrier = new Barrier(checkpointId);
    for (ExchangeOutput e : allExchanges) {
      e.broadcast(barrier);
    }
    flushOutputs();
  }

  // ---- watermarks and timers ----

  private boolean hasPendingWatermark() {
    for (int i = 0, n = nodes.size(); i < n; i++) {
      if (nodes.get(i).hasPendingWatermark()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Applies pending watermarks in chain order, firing due timers one at a time and stopping when
   * downstream has no credit. Returns true if a pending watermark remains. Task thread (or a test
   * driving the task's input by hand).
   */
  boolean firePendingWatermarks() {
    for (int i = 0, n = nodes.size(); i < n; i++) {
      ChainNode node = nodes.get(i);
      if (!node.hasPendingWatermark()) {
        continue;
      }
      changedSinceBarrier = true;
      long wm = node.pendingWatermark;
      if (node.timers != null) {
        Timer t;
        while (outputsAvailable() && (t = node.timers.pollDue(wm)) != null) {
          node.operator.onTimer(t, node.output);
        }
        if (!outputsAvailable()) {
          return true;
        }
        node.timers.advanceWatermark(wm);
      }
      node.watermark = wm;
      long out = node.operator.onWatermark(wm, node.output);
      forwardWatermark(node, out);
    }
    return hasPendingWatermark();
  }

  private void forwardWatermark(ChainNode node, long wm) {
    if (wm == Watermark.NONE) {
      return;
    }
    Watermark element = new Watermark(wm);
    for (ChainNode c : node.children) {
      c.offerWatermark(wm);
    }
    for (List<ChainNode> side : node.sideChildren.values()) {
      for (ChainNode c : side) {
        c.offerWatermark(wm);
      }
    }
    for (ExchangeOutput e : node.exchanges) {
      e.writeWatermark(wm, element);
    }
    for (List<ExchangeOutput> side : node.sideExchanges.values()) {
      for (ExchangeOutput e : side) {
        e.writeWatermark(wm, element);
      }
    }
  }

  // ---- outputs ----

  private boolean outputsAvailable() {
    for (int i = 0, n = allExchanges.size(); i < n; i++) {
      if (!allExchanges.get(i).isAvailable()) {
        return false;
      }
    }
    return true;
  }

  private boolean drainOutputs() {
    boolean all = true;
    for (ExchangeOutput e : allExchanges) {
      all &= e.drain();
    }
    return all;
  }

  private void flushOutputs() {
    for (ExchangeOutput e : allExchanges) {
      e.flush();
    }
  }

  // ---- lifecycle ----

  private void openAll() {
    for (ChainNode n : nodes) {
      n.operator.open(n.context);
    }
  }

  private void finishAll() {
    for (ChainNode n : nodes) {
      n.operator.finish(n.output);
    }
    for (ExchangeOutput e : allExchanges) {
      e.broadcast(EndOfInput.INSTANCE);
    }
    flushOutputs();
    while (!drainOutputs()) {
      checkCancelled();
      mailbox.runMail();
      await(TaskTimes.Wait.CREDIT, Long.MAX_VALUE);
    }
  }

  private void closeAll() {
    try {
      input.close();
    } catch (RuntimeException e) {
      // closing after a failure: the first error is what matters
    }
    for (ChainNode n : nodes) {
      try {
        n.operator.close();
      } catch (RuntimeException e) {
        // same
      }
    }
    for (AutoCloseable r : resources) {
      try {
        r.close();
      } catch (Exception e) {
        // same
      }
    }
  }

  /**
   * Publishes the task's and its operators' counters, and refills the output samples' budgets.
   * Returns the time ({@code System.nanoTime()}).
   */
  private long publish() {
    long now = System.nanoTime();
    counters.recordsIn = recordsIn;
    long out = 0;
    for (int i = 0, size = nodes.size(); i < size; i++) {
      ChainNode n = nodes.get(i);
      long nodeOut = n.recordsOut;
      if (n.operator instanceof SinkOperator s) {
        nodeOut = s.written();
        out += nodeOut;
      }
      n.metrics.publish(n.recordsIn, nodeOut, n.watermark);
      n.tap.refill(now);
    }
    counters.recordsOut = out;
    return now;
  }

  private void checkCancelled() {
    if (cancelled) {
      throw new CancellationException("task " + name + " cancelled");
    }
  }
}
