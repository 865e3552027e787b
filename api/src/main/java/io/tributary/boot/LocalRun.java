package io.tributary.boot;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.AttemptId;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.worker.pool.ConnectorSplitEnumerator;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.pool.LocalAttempt;

/**
 * One job run in this process: a {@link JobMaster} on an {@link InProcessWorkerPool} of its own.
 * What {@code tributary run}, the benchmarks and the job-level tests use. Closing it closes the
 * pool (the state backends and stores of the pool's options are the caller's).
 */
public final class LocalRun implements AutoCloseable {
  private final JobMaster master;
  private final InProcessWorkerPool pool;

  private LocalRun(JobMaster master, InProcessWorkerPool pool) {
    this.master = master;
    this.pool = pool;
  }

  /**
   * A run of {@code settings.plan()} on in-process workers with {@code options}.
   *
   * @param store the job's checkpoints, or null to run without checkpoints (the options then need
   *     no checkpoint store)
   */
  public static LocalRun create(JobMaster.Settings settings, InProcessWorkerPool.Options options,
      CheckpointStore store, JobMaster.Events events) {
    if (store != null && options.checkpointStore() == null) {
      options = options.withCheckpointStore(store.objects()); // timers go where the checkpoints go
    }
    InProcessWorkerPool pool = new InProcessWorkerPool(options);
    JobMaster master = new JobMaster(settings, new JobMaster.Services(pool,
        new ConnectorSplitEnumerator(options.connectors()), options.stateBackends()), store, events);
    return new LocalRun(master, pool);
  }

  /**
   * Runs {@code plan} without checkpoints until its bounded sources end (sinks commit then).
   *
   * @throws io.tributary.scheduler.master.RunFailedException if a task failed
   */
  public static void runToEnd(ExecutionPlan plan, InProcessWorkerPool.Options options) throws InterruptedException {
    try (LocalRun run = create(JobMaster.Settings.withoutCheckpoints(plan), options, null, new JobMaster.Events() {})) {
      run.master().run();
    }
  }

  public JobMaster master() {
    return master;
  }

  /** The tasks of the attempt that runs now, or null between attempts. */
  public LocalAttempt attempt() {
    AttemptId id = master.attempt();
    return id == null ? null : pool.attempt(id);
  }

  /** Runs the job until it ends; see {@link JobMaster#run()}. */
  public CheckpointMetadata run() throws InterruptedException {
    return master.run();
  }

  /** Stops the job; see {@link JobMaster#cancel()}. */
  public void cancel() {
    master.cancel();
  }

  /** Takes a savepoint; see {@link JobMaster#savepoint(String)}. */
  public java.util.concurrent.CompletableFuture<CheckpointMetadata> savepoint(String trigger) {
    return master.savepoint(trigger);
  }

  @Override
  public void close() {
    pool.close();
  }
}
