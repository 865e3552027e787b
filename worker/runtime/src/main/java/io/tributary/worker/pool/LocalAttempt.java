package io.tributary.worker.pool;

import io.tributary.checkpoint.CheckpointAcks;
import io.tributary.checkpoint.TaskState;
import io.tributary.connect.SinkConnector;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.StagePlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.Failure;
import io.tributary.protocol.SampledRecord;
import io.tributary.protocol.SinkRecovery;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.stream.Record;
import io.tributary.worker.state.StateParking;
import io.tributary.worker.task.Checkpointing;
import io.tributary.worker.task.OutputTap;
import io.tributary.worker.task.StreamTask;
import io.tributary.worker.task.TaskGraph;
import io.tributary.worker.task.Transport;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tasks of one attempt that run in this process, one thread each, and what they report. The
 * attempt ends when every task has finished (bounded sources), fails when any task fails (the others
 * are cancelled), or is cancelled. Each task's end is reported after its last metrics and output, so
 * the control plane has its final counters.
 *
 * <pre>
 *   RUNNING -> ENDED (every task finished, failed or cancelled) -> CLOSED (sinks closed)
 * </pre>
 */
public final class LocalAttempt implements AutoCloseable {
  private final AttemptDeployment deployment;
  private final String worker;
  private final WorkerReports reports;
  /** Held while a report is delivered; {@link #closed} is set under it, so none follows {@link #close}. */
  private final Object delivery = new Object();
  private boolean closed;
  /** Guarded by {@link #delivery}: every task end and final state reported so far, in order. */
  private final List<WorkerReport> endings = new ArrayList<>();
  private volatile long lastTriggered;
  private final Map<String, SinkConnector> sinks;
  private final ExecutorService uploads;
  private final List<StreamTask> tasks;
  private final List<Thread> threads = new ArrayList<>();
  private final CountDownLatch done;
  private final AtomicReference<Failure> failure = new AtomicReference<>();
  private final AttemptMetrics metrics;
  /** Guarded by itself: per output sample, the next seq to report. */
  private final Map<OutputTap, Long> reported = new IdentityHashMap<>();

  private final Transport transport;

  private LocalAttempt(AttemptDeployment deployment, String worker, InProcessWorkerPool.Options options,
      Transport transport, WorkerReports reports) {
    this.deployment = deployment;
    this.worker = worker;
    this.transport = transport;
    this.reports = reports;
    this.uploads = deployment.checkpoints() == null ? null : Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "checkpoint-upload " + deployment.attempt());
      t.setDaemon(true);
      return t;
    });
    this.sinks = openSinks(deployment, options);
    Checkpointing checkpointing = deployment.checkpoints() == null ? null
        : new Checkpointing(new Acks(), options.checkpointStore(), uploads, deployment.attempt().attempt(),
            deployment.checkpoints().aligned(), deployment.checkpoints().unaligned(),
            deployment.checkpoints().alignmentTimeoutMillis() > 0
                ? deployment.checkpoints().alignmentTimeoutMillis() * 1_000_000 : Checkpointing.NO_TIMEOUT);
    try {
      this.tasks = TaskGraph.build(deployment, worker, new TaskGraph.Environment(options.stateBackends(),
          options.connectors(), sinks, options.credits(), checkpointing, new Listener(), transport)).tasks();
      // the job's state kept open on this worker by its previous attempt that no task here took back
      options.stateBackends().values().stream().filter(f -> f instanceof StateParking.Factory)
          .map(f -> ((StateParking.Factory) f).parking()).distinct()
          .forEach(p -> p.dropUnclaimed(worker, deployment.plan().jobName()));
    } catch (RuntimeException e) {
      closeSinks(sinks);
      if (uploads != null) {
        uploads.shutdown();
      }
      if (transport != null) {
        transport.release(deployment.attempt());
      }
      throw e;
    }
    this.done = new CountDownLatch(tasks.size());
    this.metrics = new AttemptMetrics(tasks);
  }

  /**
   * Recovers the attempt's sinks, builds its tasks and starts them.
   *
   * @throws RuntimeException what building threw (a restore that cannot work, a misconfigured
   *     connector); nothing is left running
   */
  static LocalAttempt start(AttemptDeployment deployment, String worker, InProcessWorkerPool.Options options,
      WorkerReports reports) {
    return start(deployment, worker, options, null, reports);
  }

  /**
   * Like {@link #start(AttemptDeployment, String, InProcessWorkerPool.Options, WorkerReports)}, for
   * the tasks placed on {@code worker} only, their channels to other workers through
   * {@code transport}.
   */
  public static LocalAttempt start(AttemptDeployment deployment, String worker, InProcessWorkerPool.Options options,
      Transport transport, WorkerReports reports) {
    LocalAttempt a = new LocalAttempt(deployment, worker, options, transport, reports);
    for (StreamTask t : a.tasks) {
      Thread th = new Thread(t, "task " + t.name());
      th.setDaemon(true);
      a.threads.add(th);
    }
    a.threads.forEach(Thread::start);
    return a;
  }

  /** One connector per sink of the plan, recovered (when the attempt checkpoints) before any writer opens. */
  private Map<String, SinkConnector> openSinks(AttemptDeployment d, InProcessWorkerPool.Options options) {
    Map<String, SinkConnector> out = new LinkedHashMap<>();
    Map<String, SinkRecovery> recoveries = new LinkedHashMap<>();
    d.sinkRecoveries().forEach(r -> recoveries.put(r.sinkId(), r));
    try {
      for (StagePlan stage : d.plan().stages()) {
        for (OperatorPlan op : stage.operators()) {
          if (op instanceof SinkPlan s && !out.containsKey(s.id())) {
            SinkConnector sink = options.connectors().sink(s);
            out.put(s.id(), sink);
            SinkRecovery r = recoveries.get(s.id());
            if (r != null) {
              sink.recover(r.committables(), r.previousMaxParallelism(), d.attempt().attempt());
            }
          }
        }
      }
    } catch (RuntimeException e) {
      closeSinks(out);
      if (uploads != null) {
        uploads.shutdown();
      }
      throw e;
    }
    return out;
  }

  public AttemptId id() {
    return deployment.attempt();
  }

  public AttemptDeployment deployment() {
    return deployment;
  }

  public List<StreamTask> tasks() {
    return tasks;
  }

  /** A live view of the tasks' counters. */
  public AttemptMetrics metrics() {
    return metrics;
  }

  /** Source tasks inject the barrier of {@code checkpointId}; the others align on it. */
  public void trigger(long checkpointId) {
    trigger(checkpointId, false);
  }

  /**
   * Like {@link #trigger(long)}; with {@code stopSources} the source tasks read nothing after the
   * barrier (see {@link StreamTask#triggerCheckpoint(long, boolean)}).
   */
  public void trigger(long checkpointId, boolean stopSources) {
    lastTriggered = Math.max(lastTriggered, checkpointId);
    for (StreamTask t : tasks) {
      if (t.isSource()) {
        t.triggerCheckpoint(checkpointId, stopSources);
      }
    }
  }

  /** The largest checkpoint id this worker's source tasks of the attempt were told to take (0: none). */
  public long lastTriggered() {
    return lastTriggered;
  }

  /**
   * Every task end and final state of the attempt reported so far, in order: what a control plane
   * that takes the running attempt over is told again, since the one they were reported to is gone.
   */
  public List<WorkerReport> endings() {
    synchronized (delivery) {
      return List.copyOf(endings);
    }
  }

  /** Commits the sinks' pre-commits of a completed checkpoint (idempotent). */
  public void commit(Map<String, List<String>> committables) {
    committables.forEach((sinkId, c) -> {
      SinkConnector sink = sinks.get(sinkId);
      if (sink != null) {
        sink.commit(c);
      }
    });
  }

  /**
   * Waits until every task ended.
   *
   * @return true if they did within the timeout
   * @throws JobFailedException if a task failed
   */
  public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
    boolean ended = done.await(timeout, unit);
    Failure f = failure.get();
    if (f != null) {
      throw new JobFailedException(f, null);
    }
    return ended;
  }

  public boolean isDone() {
    return done.getCount() == 0;
  }

  /** Cancels every task and waits for their threads. */
  public void cancel() throws InterruptedException {
    tasks.forEach(StreamTask::cancel);
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(10));
    }
  }

  /**
   * Cancels the attempt if it still runs, then closes its sink connectors (after their last commit)
   * and stops its checkpoint uploads: once it returns, the attempt writes nothing more.
   */
  @Override
  public void close() throws InterruptedException {
    if (!isDone()) {
      cancel();
    }
    if (transport != null) {
      transport.release(id());
    }
    closeSinks(sinks);
    synchronized (delivery) {
      closed = true;
    }
    if (uploads != null) {
      // an upload of this attempt's checkpoint is of no use now; none may write after close returns
      // (the caller may go on to close the store, or delete its directory)
      uploads.shutdownNow();
      if (!uploads.awaitTermination(10, TimeUnit.SECONDS)) {
        System.getLogger(LocalAttempt.class.getName()).log(System.Logger.Level.WARNING,
            "checkpoint uploads of " + id() + " still running 10 s after it was closed");
      }
    }
  }

  private void deliver(WorkerReport report) {
    synchronized (delivery) {
      if (report instanceof WorkerReport.TaskEnded || report instanceof WorkerReport.FinalState) {
        endings.add(report);
      }
      if (!closed) {
        reports.report(report);
      }
    }
  }

  private static void closeSinks(Map<String, SinkConnector> sinks) {
    for (SinkConnector s : sinks.values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        // releasing clients of an attempt that is over: nothing to recover
      }
    }
  }

  // ---- reports

  /** Reports the counters of every task. Reporter thread. */
  public void reportMetrics() {
    deliver(new WorkerReport.Metrics(id(), worker, metrics.snapshot()));
  }

  /** Reports what each output sample took since its last report. Reporter and task threads. */
  public void reportOutput() {
    for (StreamTask t : tasks) {
      reportOutput(t);
    }
  }

  private void reportOutput(StreamTask t) {
    for (StreamTask.OperatorView v : t.operators()) {
      OutputTap tap = v.tap();
      List<OutputTap.Entry> entries;
      synchronized (reported) {
        long from = reported.getOrDefault(tap, 0L);
        entries = tap.since(from);
        if (entries.isEmpty()) {
          continue;
        }
        reported.put(tap, entries.get(entries.size() - 1).seq() + 1);
      }
      List<SampledRecord> records = new ArrayList<>(entries.size());
      for (OutputTap.Entry e : entries) {
        Record r = e.record();
        records.add(new SampledRecord(e.seq(), e.emittedAtMillis(),
            r.timestamp() == Record.NO_TIMESTAMP ? null : r.timestamp(), r.asMap()));
      }
      deliver(new WorkerReport.Output(id(), tap.operatorId(), tap.subtask(), records));
    }
  }

  /** A task's last metrics and output, then its end. Task thread, as it ends. */
  private void ended(StreamTask task, WorkerReport.TaskEnded.Outcome outcome, Failure f) {
    deliver(new WorkerReport.Metrics(id(), worker, List.of(AttemptMetrics.of(task, System.nanoTime()))));
    reportOutput(task);
    deliver(new WorkerReport.TaskEnded(id(), task.stageId() + "/" + task.subtaskIndex(), task.name(), outcome,
        f));
  }

  private final class Listener implements StreamTask.TaskListener {
    @Override
    public void finished(StreamTask task) {
      ended(task, WorkerReport.TaskEnded.Outcome.FINISHED, null);
      done.countDown();
    }

    @Override
    public void failed(StreamTask task, Throwable error) {
      if (error instanceof CancellationException) {
        ended(task, WorkerReport.TaskEnded.Outcome.CANCELLED, null);
      } else {
        Failure f = Failures.ofTask(task.name(), error);
        boolean first = failure.compareAndSet(null, f);
        ended(task, WorkerReport.TaskEnded.Outcome.FAILED, f); // before the others report being cancelled
        if (first) {
          tasks.forEach(StreamTask::cancel);
        }
      }
      done.countDown();
    }
  }

  /** Checkpoint progress of the tasks, as reports. Task and upload threads. */
  private final class Acks implements CheckpointAcks {
    @Override
    public void acknowledge(long checkpointId, TaskState state) {
      deliver(new WorkerReport.CheckpointAck(id(), checkpointId, state));
    }

    @Override
    public void decline(long checkpointId, String task, Throwable reason) {
      deliver(new WorkerReport.CheckpointDeclined(id(), checkpointId, task, String.valueOf(reason.getMessage())));
    }

    @Override
    public void finished(TaskState state) {
      deliver(new WorkerReport.FinalState(id(), state));
    }
  }
}
