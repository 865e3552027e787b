package io.tributary.scheduler.master;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.plan.ExecutionPlan;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.Failure;
import io.tributary.protocol.RunningAttempt;
import io.tributary.protocol.SplitEnumerator;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerSlots;
import io.tributary.scheduler.checkpoint.CheckpointCoordinator;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.placement.Placement;
import io.tributary.state.StateBackendFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs one job on a {@link WorkerPool}, attempt after attempt, until it ends (see {@code
 * docs/design.md}, "Checkpoints and exactly-once").
 *
 * <p>Each attempt of a checkpointed job takes a new epoch from the {@link CheckpointStore} (which
 * fences the coordinators of earlier attempts and numbers the sinks' attempts), is placed
 * ({@link Placement}) on the slots the pool grants and deployed, and starts from a checkpoint: the
 * one the {@link RestorePolicy} names at first, then the latest one this master recorded. Its
 * {@link CheckpointCoordinator} triggers checkpoints through the pool and completes them from the
 * workers' acknowledgements. A failure, classified by the worker that saw it ({@link Failure}),
 * restarts the job after the {@link RestartPolicy}'s backoff if it is retryable; a non-retryable
 * one, or too many in a row, ends the run with {@link RunFailedException}. A bounded job ends with a
 * last checkpoint that commits its final output. A job without a checkpoint store runs one attempt
 * without checkpoints, and its sinks commit when their input ends.
 *
 * <pre>
 *   STARTING -> RUNNING -> FINISHED
 *                  |  \--> FAILED (not retryable, or restarts exhausted)
 *                  \-> RESTARTING (backoff) -> STARTING
 * </pre>
 *
 * <p><b>Taking a running attempt over.</b> With a re-attach wait ({@link Settings#reattachWait}),
 * the first attempt of a run that restores the latest checkpoint is, when the pool's workers still
 * run one of the job ({@link WorkerPool#running}: a control plane before this one deployed it), that
 * attempt: the store fences the earlier coordinator ({@link CheckpointStore#adoptRun}), the output of
 * the latest checkpoint is committed (idempotent: the earlier control plane may have died before),
 * and checkpoints go on, numbered after the last one its sources were told to take. If there is none,
 * or it cannot be taken, the run starts a new attempt as usual. {@link #detach} lets go of the
 * running attempt without ending it, for the next control plane to take it over.
 *
 * <p>Reports of an attempt other than the current one are ignored.
 */
public final class JobMaster implements AutoCloseable {
  /**
   * Attempt numbers of runs without checkpoints (which take no epoch from a store): unique across
   * this process's runs, and growing across its restarts, so workers never take a new run for one
   * they already released.
   */
  private static final AttemptNumbers UNCHECKPOINTED = new AttemptNumbers();

  /** How long a failed attempt's other tasks get to report their end after being cancelled. */
  private static final long CANCEL_WAIT_MILLIS = 30_000;

  /** What the master reports, from its own, the coordinator's and the workers' threads. */
  public interface Events {
    default void restoring(CheckpointMetadata from) {}

    /**
     * The restore from {@code from} leaves the state of {@code operators} behind: the plan no longer
     * has them and its settings allow it ({@link Settings#allowNonRestoredState}). Told before
     * {@link #restoring}.
     */
    default void notRestored(CheckpointMetadata from, List<String> operators) {}

    /** What {@link #notRestored} tells the user. */
    static String describeNotRestored(CheckpointMetadata from, List<String> operators) {
      return "leaving behind the state of " + (operators.size() == 1 ? "operator " : "operators ")
          + String.join(", ", operators.stream().map(o -> "'" + o + "'").toList()) + " in " + from.kind() + " "
          + from.id() + ": the job no longer has " + (operators.size() == 1 ? "it" : "them")
          + " (state.allowNonRestoredState)";
    }

    /**
     * An attempt of {@code plan} is about to be deployed: its workers' reports may arrive from now
     * on, before {@link #started} (a short bounded job can end before it).
     */
    default void deploying(AttemptId attempt, ExecutionPlan plan) {}

    /**
     * The pool has not the slots of {@code attempt} free and waits for them; {@code why} says how
     * many it has ({@link WorkerPool#acquire(AttemptId, int, java.util.function.Consumer)}).
     */
    default void waitingForSlots(AttemptId attempt, String why) {}

    /** An attempt was deployed and runs. */
    default void started(AttemptId attempt, ExecutionPlan plan) {}

    /**
     * The run took over an attempt that workers still ran for an earlier control plane (told after
     * {@link #placed}, before {@link #started}), going on after checkpoint {@code after} (null: none).
     */
    default void reattached(AttemptDeployment deployment, CheckpointMetadata after) {}

    /** Where the tasks of an attempt run: its deployment, told just before {@link #started}. */
    default void placed(AttemptDeployment deployment) {}

    default void completed(CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats stats) {}

    default void aborted(long checkpointId, String reason) {}

    default void restarting(Failure failure, int restart, int maxRestarts, Duration backoff) {}

    /** The current attempt's metrics and output samples, as the workers report them. Any thread. */
    default void observed(WorkerReport report) {}

    /** An attempt is over and released: its workers report no more. */
    default void attemptEnded(AttemptId attempt) {}
  }

  /**
   * @param plan the job
   * @param intervalMillis time between checkpoints
   * @param retain completed checkpoints kept
   * @param timeoutMillis a checkpoint not complete after this is aborted
   * @param exactlyOnce aligned barriers (false: at-least-once checkpoints, no input held)
   * @param reattachWait how long the first attempt waits for the pool's workers to show an attempt of
   *     the job they still run, to take it over instead of starting a new one (zero: never; only when
   *     the run restores the latest checkpoint)
   * @param previousPlacement where the tasks of the job's previous attempt ran, by task id: the first
   *     attempt puts each task back there where it can (see {@link Placement}); later ones follow
   *     their own previous attempt
   * @param unaligned with {@code exactlyOnce}: barriers overtake buffered records, which are logged
   *     into the checkpoint
   * @param alignmentTimeoutMillis with {@code unaligned}: a checkpoint aligns this long at a task
   *     before it turns unaligned there (0: unaligned from the start)
   * @param allowNonRestoredState whether the first restore may leave behind the state of operators
   *     the plan no longer has (by id); false: such a restore fails as the user's error
   */
  public record Settings(ExecutionPlan plan, long intervalMillis, int retain, long timeoutMillis,
      RestorePolicy restore, RestartPolicy restarts, boolean exactlyOnce, Duration reattachWait,
      Map<String, String> previousPlacement, boolean unaligned, long alignmentTimeoutMillis,
      boolean allowNonRestoredState) {
    public Settings {
      Objects.requireNonNull(reattachWait, "reattachWait");
      previousPlacement = Map.copyOf(previousPlacement);
      if (unaligned && !exactlyOnce) {
        throw new IllegalArgumentException("unaligned checkpoints are exactly-once checkpoints");
      }
    }

    public Settings(ExecutionPlan plan, long intervalMillis, int retain, long timeoutMillis, RestorePolicy restore,
        RestartPolicy restarts, boolean exactlyOnce, Duration reattachWait, Map<String, String> previousPlacement) {
      this(plan, intervalMillis, retain, timeoutMillis, restore, restarts, exactlyOnce, reattachWait,
          previousPlacement, false, 0, false);
    }

    /** The same with unaligned checkpoints, aligning {@code alignmentTimeoutMillis} first (0: never). */
    public Settings withUnaligned(long alignmentTimeoutMillis) {
      return new Settings(plan, intervalMillis, retain, timeoutMillis, restore, restarts, exactlyOnce, reattachWait,
          previousPlacement, true, alignmentTimeoutMillis, allowNonRestoredState);
    }

    /** The same, leaving behind ({@code allow}) or refusing state of operators the plan no longer has. */
    public Settings withAllowNonRestoredState(boolean allow) {
      return new Settings(plan, intervalMillis, retain, timeoutMillis, restore, restarts, exactlyOnce, reattachWait,
          previousPlacement, unaligned, alignmentTimeoutMillis, allow);
    }

    /** Never taking a running attempt over. */
    public Settings(ExecutionPlan plan, long intervalMillis, int retain, long timeoutMillis, RestorePolicy restore,
        RestartPolicy restarts, boolean exactlyOnce) {
      this(plan, intervalMillis, retain, timeoutMillis, restore, restarts, exactlyOnce, Duration.ZERO, Map.of());
    }

    /** Exactly-once (aligned) checkpoints. */
    public Settings(ExecutionPlan plan, long intervalMillis, int retain, long timeoutMillis, RestorePolicy restore,
        RestartPolicy restarts) {
      this(plan, intervalMillis, retain, timeoutMillis, restore, restarts, true);
    }

    /** The same, taking over an attempt the pool's workers still run, waiting up to {@code w} for it. */
    public Settings withReattachWait(Duration w) {
      return new Settings(plan, intervalMillis, retain, timeoutMillis, restore, restarts, exactlyOnce, w,
          previousPlacement, unaligned, alignmentTimeoutMillis, allowNonRestoredState);
    }

    /** The same, the first attempt's tasks back on the workers {@code p} names where it can. */
    public Settings withPreviousPlacement(Map<String, String> p) {
      return new Settings(plan, intervalMillis, retain, timeoutMillis, restore, restarts, exactlyOnce, reattachWait, p,
          unaligned, alignmentTimeoutMillis, allowNonRestoredState);
    }

    /** For a run without checkpoints: one attempt, no restore, no restart. */
    public static Settings withoutCheckpoints(ExecutionPlan plan) {
      return new Settings(plan, 0, 1, 0, RestorePolicy.NONE, RestartPolicy.NEVER, true);
    }
  }

  /**
   * Where the job runs.
   *
   * @param pool the workers
   * @param splits lists the sources' splits for placement
   * @param stateBackends the backends whose snapshots the coordinator retains, releases and copies
   *     (checkpoint garbage and self-contained savepoints)
   * @param workersHaveOwnState whether the workers' state backends are other instances than
   *     {@code stateBackends} (worker processes): completed checkpoints are then retained in these
   *     ones, so that their files are deleted once nothing retained references them
   */
  public record Services(WorkerPool pool, SplitEnumerator splits, Map<String, StateBackendFactory> stateBackends,
      boolean workersHaveOwnState) {
    public Services {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(splits, "splits");
      stateBackends = Map.copyOf(stateBackends);
    }

    /** Workers in this process, sharing {@code stateBackends}. */
    public Services(WorkerPool pool, SplitEnumerator splits, Map<String, StateBackendFactory> stateBackends) {
      this(pool, splits, stateBackends, false);
    }
  }

  private final Settings settings;
  private final Services services;
  private final CheckpointStore store;
  private final Events events;
  private final CountDownLatch cancelled = new CountDownLatch(1);
  /** Set by {@link #detach}: the run ends without ending its attempt. */
  private volatile boolean detaching;
  private volatile Attempt attempt;
  private volatile CheckpointCoordinator coordinator;
  private volatile CheckpointMetadata lastCompleted;
  /**
   * The latest checkpoint a coordinator of this master recorded, committed or not: what a restart
   * restores. A run that failed while committing a recorded checkpoint's output (its committer died,
   * say) may have committed part of it; restoring that checkpoint commits the rest (commits are
   * idempotent), where restoring the one before it would write the committed part a second time.
   */
  private volatile CheckpointMetadata lastRecorded;
  private volatile int failuresInRow;
  /** Where the tasks of the latest attempt ran, by task id (master thread). */
  private Map<String, String> lastPlacement;

  /**
   * @param store the job's checkpoints, or null to run without checkpoints
   */
  public JobMaster(Settings settings, Services services, CheckpointStore store, Events events) {
    this.settings = settings;
    this.services = services;
    this.store = store;
    this.events = events;
    if (store == null && settings.restore().mode() != RestorePolicy.Mode.NONE) {
      throw new IllegalArgumentException("a job without checkpoints cannot restore " + settings.restore());
    }
  }

  /** The attempt that runs now, or null between attempts. */
  public AttemptId attempt() {
    Attempt a = attempt;
    return a == null ? null : a.id;
  }

  /** Takes a savepoint of the running job, triggered by the user. */
  public CompletableFuture<CheckpointMetadata> savepoint() {
    return savepoint("user");
  }

  /**
   * Takes a savepoint of the running job.
   *
   * @param trigger who asks ({@code user}, {@code stop}, {@code rollout}), recorded in its entry
   */
  public CompletableFuture<CheckpointMetadata> savepoint(String trigger) {
    CheckpointCoordinator c = coordinator;
    if (c == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("the job is not running"));
    }
    return c.triggerSavepoint(trigger);
  }

  /** Triggers a checkpoint of the running job now; completes when it completes or is aborted. */
  public CompletableFuture<CheckpointMetadata> checkpoint() {
    return checkpoint(false);
  }

  /**
   * Like {@link #checkpoint()}; with {@code stopSources} the sources read nothing after its barrier,
   * for a run that ends once it completes ({@link CheckpointCoordinator#triggerCheckpoint(boolean)}).
   */
  public CompletableFuture<CheckpointMetadata> checkpoint(boolean stopSources) {
    CheckpointCoordinator c = coordinator;
    if (c == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("the job is not running"));
    }
    return c.triggerCheckpoint(stopSources);
  }

  /**
   * Runs the job until it ends.
   *
   * @return the last checkpoint, which covers the whole output (null without checkpoints)
   * @throws RunFailedException when it failed and cannot (or may no longer) restart
   * @throws CancellationException when {@link #cancel} was called
   */
  public CheckpointMetadata run() throws InterruptedException {
    ExecutionPlan plan = settings.plan();
    CheckpointMetadata restore = initialRestore();
    boolean first = true;
    while (true) {
      checkNotCancelled();
      CheckpointStore.Run run = null;
      RunningAttempt running = first ? takeOver(plan) : null;
      if (running != null && cancelled.getCount() == 0) {
        if (!detaching) {
          services.pool().release(running.attempt());
        }
        throw new CancellationException("cancelled");
      }
      if (running != null) {
        run = adoptRun(running);
        running = run == null ? null : running;
      }
      if (store != null && run == null) {
        run = store.beginRun(Placement.maxSinkParallelism(plan));
        if (first && settings.restore().mode() == RestorePolicy.Mode.NONE) {
          store.clearLatest(run.epoch());
        }
        if (lastRecorded != null) {
          // read after beginRun fenced the earlier runs' coordinators: none can record a later one now
          restore = lastRecorded;
        }
      }
      first = false;
      if (restore != null && running == null) {
        events.restoring(restore);
      }
      Failure failure = runOnce(plan, run, restore, running);
      if (failure == null) {
        return lastCompleted;
      }
      checkNotCancelled();
      int n = ++failuresInRow;
      if (!failure.retryable() || n > settings.restarts().maxRestarts()) {
        throw new RunFailedException(failure, n - 1, settings.restarts().maxRestarts(), settings.intervalMillis() > 0);
      }
      Duration backoff = settings.restarts().backoff(n);
      events.restarting(failure, n, settings.restarts().maxRestarts(), backoff);
      if (cancelled.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new CancellationException("cancelled");
      }
    }
  }

  /**
   * The attempt of the job that the pool's workers still run for an earlier control plane, when
   * this run may take one over; null if none.
   */
  private RunningAttempt takeOver(ExecutionPlan plan) throws InterruptedException {
    if (store == null || settings.reattachWait().isZero() || settings.restore().mode() != RestorePolicy.Mode.LATEST) {
      return null;
    }
    Optional<RunningAttempt> found = services.pool().running(plan.jobName(), settings.reattachWait());
    if (found.isEmpty()) {
      return null;
    }
    if (!io.tributary.protocol.ProtocolCodec.sameContent(found.get().deployment().plan(), plan)) {
      services.pool().release(found.get().attempt()); // another spec or parallelism: it ends, this run starts anew
      return null;
    }
    return found.get();
  }

  /** Fences the earlier control plane's coordinator of {@code running}; null if the attempt is stale. */
  private CheckpointStore.Run adoptRun(RunningAttempt running) {
    try {
      return store.adoptRun(running.attempt().attempt());
    } catch (io.tributary.scheduler.metadata.FencedException e) {
      services.pool().release(running.attempt()); // a later run began: it must not go on
      return null;
    }
  }

  /**
   * One attempt of the job, deployed now or, if {@code running} is not null, taken over; null when
   * it finished, else why it failed.
   */
  private Failure runOnce(ExecutionPlan plan, CheckpointStore.Run run, CheckpointMetadata restore,
      RunningAttempt running) throws InterruptedException {
    AttemptId id = running != null ? running.attempt()
        : new AttemptId(plan.jobName(), run == null ? UNCHECKPOINTED.next() : run.epoch());
    WorkerPool pool = services.pool();
    CheckpointCoordinator c = run == null ? null : new CheckpointCoordinator(
        new CheckpointCoordinator.Settings(plan.jobName(), plan.maxParallelism(), settings.intervalMillis(),
            settings.timeoutMillis(), settings.retain(), services.workersHaveOwnState(),
            io.tributary.plan.StateLayouts.of(plan)),
        store, run, services.stateBackends(), new CoordinatorEvents());
    Attempt a = new Attempt(id, Placement.slotsNeeded(plan), pool, events);
    try {
      a.coordinator = c;
      try {
        attempt = a;
        coordinator = c;
        if (running != null) {
          follow(plan, running, a, c);
        } else {
          List<WorkerSlots> slots = pool.acquire(id, Placement.slotsNeeded(plan),
              why -> events.waitingForSlots(id, why));
          AttemptDeployment d = Placement.place(id, plan, restore,
              run == null ? null : new AttemptDeployment.CheckpointSettings(settings.exactlyOnce(),
                  settings.unaligned(), settings.alignmentTimeoutMillis()),
              run == null ? 0 : run.previousMaxSinkParallelism(), services.splits(), slots,
              lastPlacement != null ? lastPlacement : settings.previousPlacement());
          lastPlacement = placementOf(d);
          events.deploying(id, plan);
          pool.deploy(d, a);
          events.placed(d);
        }
      } catch (RuntimeException e) {
        return Failures.classify(e);
      }
      if (cancelled.getCount() == 0 && !detaching) {
        pool.cancel(id); // cancel() came while the attempt was deploying, before it could see it
      }
      if (c != null) {
        c.start(a);
      }
      events.started(id, plan);
      Failure failure = a.awaitEnd(CANCEL_WAIT_MILLIS);
      if (failure != null) {
        return failure;
      }
      checkNotCancelled();
      if (c == null) {
        return null;
      }
      try {
        c.finalCheckpoint().get();
        return null;
      } catch (ExecutionException e) {
        return Failures.classify(e.getCause());
      }
    } finally {
      attempt = null;
      coordinator = null;
      if (c != null) {
        c.close();
      }
      if (detaching) {
        pool.detach(id);
      } else {
        pool.release(id);
      }
      events.attemptEnded(id);
    }
  }

  /**
   * Takes over {@code running}: its reports come here from now on, the latest checkpoint's output is
   * committed if the attempt took it (the control plane before may have died before committing), and
   * checkpoints are numbered after the last one its sources were told to take.
   */
  private void follow(ExecutionPlan plan, RunningAttempt running, Attempt a, CheckpointCoordinator c) {
    WorkerPool pool = services.pool();
    AttemptDeployment d = running.deployment();
    lastPlacement = placementOf(d);
    events.deploying(d.attempt(), plan);
    pool.adopt(d.attempt(), a);
    CheckpointMetadata latest = store.latest().map(p -> store.load(p.path())).orElse(null);
    long restoredFrom = d.tasks().stream().filter(t -> t.restore() != null)
        .mapToLong(t -> t.restore().checkpointId()).max().orElse(0);
    if (latest != null && latest.id() > restoredFrom) {
      pool.notifyCheckpointComplete(d.attempt(), latest);
      lastRecorded = latest;
    }
    c.resumeAfter(Math.max(running.lastCheckpointId(), latest == null ? 0 : latest.id()));
    events.placed(d);
    events.reattached(d, latest);
  }

  private static Map<String, String> placementOf(AttemptDeployment d) {
    Map<String, String> out = new java.util.HashMap<>();
    d.tasks().forEach(t -> out.put(t.taskId(), t.worker()));
    return out;
  }

  private void checkNotCancelled() {
    if (cancelled.getCount() == 0) {
      throw new CancellationException("cancelled");
    }
  }

  private CheckpointMetadata initialRestore() {
    RestorePolicy p = settings.restore();
    switch (p.mode()) {
      case NONE:
        return null;
      case PATH:
        return checkRestorable(store.load(store.resolve(p.path())));
      default:
        return store.latest().map(ptr -> checkRestorable(store.load(ptr.path()))).orElse(null);
    }
  }

  private CheckpointMetadata checkRestorable(CheckpointMetadata md) {
    if (!md.job().equals(settings.plan().jobName())) {
      throw new IllegalArgumentException(md.kind() + " " + md.id() + " belongs to job '" + md.job()
          + "', not to '" + settings.plan().jobName() + "'");
    }
    if (settings.allowNonRestoredState()) {
      List<String> left = md.statefulOperatorsNotIn(settings.plan());
      if (!left.isEmpty()) {
        events.notRestored(md, left);
        return md.withOperatorsOf(settings.plan());
      }
    }
    return md;
  }

  /**
   * Lets go of the job without stopping its attempt (this control plane stops leading): the pool
   * keeps it running where it can, for the next control plane to take over ({@link
   * WorkerPool#detach}); {@link #run} then throws {@link CancellationException}. Any thread.
   */
  public void detach() {
    detaching = true;
    cancelled.countDown();
    Attempt a = attempt;
    if (a != null) {
      a.detach();
    }
  }

  /** Stops the job; {@link #run} then throws {@link CancellationException}. Any thread. */
  public void cancel() {
    cancelled.countDown();
    Attempt a = attempt;
    if (a != null) {
      services.pool().cancel(a.id);
    }
  }

  @Override
  public void close() {
    // every attempt is released by the run that made it
  }

  private final class CoordinatorEvents implements CheckpointCoordinator.Listener {
    @Override
    public void recorded(CheckpointMetadata metadata) {
      lastRecorded = metadata;
    }

    @Override
    public void completed(CheckpointMetadata metadata, CheckpointCoordinator.CheckpointStats stats) {
      lastCompleted = metadata;
      failuresInRow = 0;
      events.completed(metadata, stats);
    }

    @Override
    public void aborted(long checkpointId, String reason) {
      events.aborted(checkpointId, reason);
    }

    @Override
    public void failed(Throwable reason) {
      Attempt a = attempt;
      if (a != null) {
        a.fail(Failures.classify(reason));
      }
    }
  }

  /** Numbers from the wall clock in milliseconds, each larger than the one before. */
  private static final class AttemptNumbers {
    private final java.util.concurrent.atomic.AtomicLong last = new java.util.concurrent.atomic.AtomicLong();

    long next() {
      return last.accumulateAndGet(System.currentTimeMillis(), (prev, now) -> Math.max(prev + 1, now));
    }
  }
}
