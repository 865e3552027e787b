package io.tributary.worker.job;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.CheckpointTarget;
import io.tributary.connect.SinkConnector;
import io.tributary.plan.ExecutionPlan;
import io.tributary.state.StateBackendFactory;
import io.tributary.worker.task.StreamTask;
import io.tributary.worker.task.TaskGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs an execution plan in this process: one thread per task. The job ends when every task has
 * finished (bounded sources), fails when any task fails (the others are cancelled), or is
 * cancelled.
 */
public final class LocalJob implements AutoCloseable, CheckpointTarget {
  private final ExecutionPlan plan;
  private final List<StreamTask> tasks;
  private final Map<String, SinkConnector> sinks;
  private final List<Thread> threads = new ArrayList<>();
  private final CountDownLatch done;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final JobMetrics metrics;

  private LocalJob(ExecutionPlan plan, JobOptions options) {
    this.plan = plan;
    Listener listener = new Listener();
    TaskGraph graph = TaskGraph.build(plan, options.stateBackends(), options.connectors(), options.credits(), listener,
        options.checkpointing());
    this.tasks = graph.tasks();
    this.sinks = graph.sinks();
    this.done = new CountDownLatch(tasks.size());
    this.metrics = new JobMetrics(tasks);
  }

  /** Builds and starts the job's tasks with the built-in connectors and the default credit. */
  public static LocalJob start(ExecutionPlan plan, Map<String, StateBackendFactory> stateBackends) {
    return start(plan, JobOptions.of(stateBackends));
  }

  /** Builds and starts the job's tasks. */
  public static LocalJob start(ExecutionPlan plan, JobOptions options) {
    LocalJob job = new LocalJob(plan, options);
    for (StreamTask t : job.tasks) {
      Thread th = new Thread(t, "task " + t.name());
      th.setDaemon(true);
      job.threads.add(th);
    }
    job.threads.forEach(Thread::start);
    return job;
  }

  @Override
  public int taskCount() {
    return tasks.size();
  }

  /** Source tasks inject the barrier of {@code checkpointId}; the others align on it. */
  @Override
  public void trigger(long checkpointId) {
    for (StreamTask t : tasks) {
      if (t.isSource()) {
        t.triggerCheckpoint(checkpointId);
      }
    }
  }

  /** Commits every sink's pre-commits of the completed checkpoint (idempotent). */
  @Override
  public void notifyComplete(CheckpointMetadata metadata) {
    metadata.committables().forEach((sinkId, committables) -> {
      SinkConnector sink = sinks.get(sinkId);
      if (sink != null) {
        sink.commit(committables);
      }
    });
  }

  public List<StreamTask> tasks() {
    return tasks;
  }

  public ExecutionPlan plan() {
    return plan;
  }

  public JobMetrics metrics() {
    return metrics;
  }

  /**
   * Waits until the job ends.
   *
   * @return true if it ended within the timeout
   * @throws JobFailedException if a task failed
   */
  public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
    boolean ended = done.await(timeout, unit);
    Throwable t = failure.get();
    if (t != null) {
      throw new JobFailedException(t);
    }
    return ended;
  }

  /** Waits until the job ends; throws {@link JobFailedException} if a task failed. */
  public void await() throws InterruptedException {
    await(Long.MAX_VALUE, TimeUnit.DAYS);
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

  /** Cancels the job if it still runs, then closes its sink connectors (after their last commit). */
  @Override
  public void close() throws InterruptedException {
    if (!isDone()) {
      cancel();
    }
    for (SinkConnector s : sinks.values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        // releasing clients of a job that is over: nothing to recover
      }
    }
  }

  private final class Listener implements StreamTask.TaskListener {
    @Override
    public void finished(StreamTask task) {
      done.countDown();
    }

    @Override
    public void failed(StreamTask task, Throwable error) {
      if (!(error instanceof java.util.concurrent.CancellationException)
          && failure.compareAndSet(null, new TaskFailure(task.name(), error))) {
        tasks.forEach(StreamTask::cancel);
      }
      done.countDown();
    }
  }

  /** A task's failure with the task's name. */
  static final class TaskFailure extends RuntimeException {
    TaskFailure(String task, Throwable cause) {
      super("task " + task + " failed: " + cause.getMessage(), cause);
    }
  }
}
