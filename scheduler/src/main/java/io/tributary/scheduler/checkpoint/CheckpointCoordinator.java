package io.tributary.scheduler.checkpoint;

import io.tributary.checkpoint.CheckpointAcks;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.CheckpointTarget;
import io.tributary.checkpoint.TaskState;
import io.tributary.scheduler.metadata.FencedException;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Triggers a run's checkpoints and completes them (contract C9).
 *
 * <p>Checkpoint n is triggered at the interval when none is in flight: source tasks inject barrier
 * n, every task acknowledges its state once its uploads are durable. A task that has finished
 * stands in every later checkpoint with its final state. When every task is accounted for, the
 * metadata object is written without overwrite, the job's latest pointer is advanced by a write
 * conditional on the version this coordinator last wrote and on its epoch, and only then the
 * checkpoint is complete: the job's sinks commit, and checkpoints beyond the retained number are
 * discarded (their state released through the backends' registries, C8, and their objects deleted
 * on a thread of their own, so neither the next checkpoint nor a restart waits for the deletes).
 * Savepoints complete the
 * same way and are never discarded, but first their state is copied into the savepoint's directory
 * ({@link StateBackendFactory#copyTo}, timer objects with {@link io.tributary.state.store.ObjectStore#copy}),
 * and their metadata references only those copies: a savepoint is self-contained and shares no
 * object with checkpoints. The state the tasks wrote for it stays retained like a checkpoint's until
 * the next checkpoint completes (the tasks' next snapshots build on it) or the coordinator closes,
 * then it is released. When every task has finished, a last checkpoint made of their final states
 * commits the job's last output.
 *
 * <pre>
 *   IDLE --trigger--> PENDING --all acks--> WRITE METADATA --> ADVANCE POINTER --> COMMIT --> IDLE
 *                        \--decline/timeout--> IDLE (aborted)       \--fenced--> STOPPED
 * </pre>
 *
 * <p>All state is touched on one coordinator thread; acks from task and upload threads are
 * handed to it.
 */
public final class CheckpointCoordinator implements CheckpointAcks, AutoCloseable {
  /** What the coordinator reports; called on its thread. */
  public interface Listener {
    /**
     * {@code metadata} is recorded (the pointer names it), before its output is committed: from here
     * on a restart restores it, whatever happens to the commit.
     */
    default void recorded(CheckpointMetadata metadata) {}

    default void completed(CheckpointMetadata metadata, CheckpointStats stats) {}

    default void aborted(long checkpointId, String reason) {}

    /**
     * The run must stop: a newer run owns the job (fenced), or committing a completed checkpoint
     * failed. Restoring from the latest checkpoint commits its output again.
     */
    default void failed(Throwable reason) {}
  }

  /**
   * Figures of one completed checkpoint.
   *
   * @param durationMillis from trigger to completion (a savepoint's state copied, metadata written,
   *     pointer advanced), as its entry records it
   * @param maxAlignmentNanos the longest any task's barrier waited for its slowest input channel
   * @param maxSyncNanos the longest snapshot time on a task thread
   * @param stateBytes size of the keyed state it describes
   * @param uploadedBytes keyed state bytes uploaded for it (new files only, C6)
   * @param summary what its entry records (trigger and completion times, sizes, bytes uploaded with
   *     timers and metadata, parallelism)
   * @param operatorStateBytes per operator id, the size of its keyed state (operators with keyed
   *     state only)
   * @param stageAckMillis per stage id, from the trigger until the last of its running tasks
   *     acknowledged (its snapshot taken and uploaded); stages whose tasks all finished earlier are
   *     absent
   */
  public record CheckpointStats(long id, String kind, String path, long durationMillis, long maxAlignmentNanos,
      long maxSyncNanos, long stateBytes, long uploadedBytes, CheckpointStore.Summary summary,
      java.util.Map<String, Long> operatorStateBytes, java.util.Map<Integer, Long> stageAckMillis) {
    public CheckpointStats {
      operatorStateBytes = java.util.Map.copyOf(operatorStateBytes);
      stageAckMillis = java.util.Map.copyOf(stageAckMillis);
    }
  }

  /**
   * @param job the job's name
   * @param maxParallelism the plan's number of key groups
   * @param intervalMillis time between checkpoints; 0: only on demand (savepoints, final)
   * @param timeoutMillis a checkpoint not complete after this is aborted
   * @param retain completed checkpoints to keep (at least 1)
   * @param retainCompletedState whether a completed checkpoint's keyed state is retained in the
   *     coordinator's backends (so that discarding it later releases its files): needed when the
   *     workers' backends are other instances (worker processes), which registered the files in
   *     their own registries; not when the workers share the coordinator's (in-process)
   * @param stateLayouts per operator id, the layout of its keyed state, recorded with every
   *     checkpoint ({@link io.tributary.plan.StateLayouts})
   */
  public record Settings(String job, int maxParallelism, long intervalMillis, long timeoutMillis, int retain,
      boolean retainCompletedState, Map<String, io.tributary.plan.StateLayouts.StateLayout> stateLayouts) {
    public Settings {
      if (retain < 1) {
        throw new IllegalArgumentException("retain must be at least 1, got " + retain);
      }
      stateLayouts = Map.copyOf(stateLayouts);
    }

    /** Workers that share the coordinator's backends; no state layouts recorded. */
    public Settings(String job, int maxParallelism, long intervalMillis, long timeoutMillis, int retain) {
      this(job, maxParallelism, intervalMillis, timeoutMillis, retain, false, Map.of());
    }
  }

  /** Pause before retrying a final checkpoint whose metadata could not be recorded. */
  static final long FINAL_RETRY_MILLIS = 1000;

  private final Settings settings;
  private final CheckpointStore store;
  private final Map<String, StateBackendFactory> backends;
  private final Listener listener;
  private final long epoch;
  private final ScheduledExecutorService thread;
  /**
   * Releases and deletes what discarded checkpoints (and replaced savepoint state) alone referenced,
   * in order. Nothing waits for it: closing lets it finish in the background, and a crash meanwhile
   * leaves objects that the next run sweeps, as any crash does.
   */
  private final java.util.concurrent.ExecutorService garbage;
  private CheckpointTarget target;
  private long nextId;
  private long pointerVersion;
  private Pending pending;
  private boolean savepointRequested;
  /** The next checkpoint this coordinator triggers stops the sources at its barrier. */
  private boolean stopSourcesRequested;
  private final List<CompletableFuture<CheckpointMetadata>> savepointWaiters = new ArrayList<>();
  private final Map<String, TaskState> finals = new HashMap<>();
  private final CompletableFuture<CheckpointMetadata> finalCheckpoint = new CompletableFuture<>();
  private final List<CheckpointStore.Retained> retained = new ArrayList<>();
  /** The state tasks wrote for savepoints (before it was copied), released by the next checkpoint. */
  private final List<CheckpointMetadata> copiedSavepoints = new ArrayList<>();
  private final List<String> savepointTriggers = new ArrayList<>();
  /** Final task states whose uploads a completed checkpoint counted already. */
  private final java.util.Set<String> countedFinals = new java.util.HashSet<>();
  private boolean stopped;

  /** A checkpoint still in flight after this long is logged with the tasks that acknowledged it. */
  static final long SLOW_WARNING_MILLIS = 30_000;

  private static final class Pending {
    final long id;
    final String kind;
    String trigger;
    final long startNanos = System.nanoTime();
    final long triggeredAtMillis = System.currentTimeMillis();
    final Map<String, TaskState> acks = new HashMap<>();
    /** Per task id, nanoseconds from the trigger until its acknowledgement arrived. */
    final Map<String, Long> ackNanos = new HashMap<>();
    final List<CompletableFuture<CheckpointMetadata>> waiters = new ArrayList<>();

    Pending(long id, String kind) {
      this.id = id;
      this.kind = kind;
    }
  }

  /**
   * A coordinator for a new run of the job: takes the run's epoch (fencing earlier runs' coordinators)
   * and counts the retained checkpoints and savepoints as retained in the state backends, so their
   * shared files survive garbage collection.
   */
  public CheckpointCoordinator(Settings settings, CheckpointStore store, CheckpointStore.Run run,
      Map<String, StateBackendFactory> backends, Listener listener) {
    this.settings = settings;
    this.store = store;
    this.backends = backends;
    this.listener = listener;
    this.epoch = run.epoch();
    this.pointerVersion = store.latestVersion();
    java.util.Set<Long> keep = new java.util.HashSet<>(); // older savepoints' timers live under chk-<id>/ too
    long maxId = 0;
    store.latest().ifPresent(p -> keep.add(p.id()));
    retained.addAll(store.checkpoints());
    List<CheckpointStore.Retained> loaded = new ArrayList<>(retained);
    loaded.addAll(store.savepoints());
    for (CheckpointStore.Retained r : loaded) {
      maxId = Math.max(maxId, r.id());
      CheckpointMetadata md = store.load(r.path());
      if (md.isSavepoint() && CheckpointStore.isSelfContained(md, r.path())) {
        continue; // shares nothing with checkpoints: nothing to retain, and no release touches it
      }
      keep.add(r.id());
      retainState(md);
    }
    this.nextId = Math.max(maxId, keep.stream().mapToLong(Long::longValue).max().orElse(0L)) + 1;
    store.sweepCheckpointObjects(keep); // what runs that died mid-checkpoint left behind
    java.util.concurrent.ScheduledThreadPoolExecutor executor = new java.util.concurrent.ScheduledThreadPoolExecutor(1,
        r -> {
          Thread t = new Thread(r, "checkpoint-coordinator " + settings.job());
          t.setDaemon(true);
          return t;
        });
    // one thread at most, gone when idle
    this.garbage = new java.util.concurrent.ThreadPoolExecutor(0, 1, 10, TimeUnit.SECONDS,
        new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "checkpoint-garbage " + settings.job());
          t.setDaemon(true);
          return t;
        });
    // closing must not wait for checkpoint timeouts still scheduled
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    this.thread = executor;
  }

  public long epoch() {
    return epoch;
  }

  /**
   * Numbers this coordinator's checkpoints after {@code checkpointId}: the attempt it follows was
   * told to take that one by an earlier coordinator (barrier ids only grow). Before {@link #start}.
   */
  public void resumeAfter(long checkpointId) {
    nextId = Math.max(nextId, checkpointId + 1);
  }

  /** Starts triggering checkpoints of {@code job} at the interval. */
  public void start(CheckpointTarget job) {
    thread.execute(() -> {
      this.target = job;
      maybeFinal(); // every task may have finished before the coordinator started
    });
    if (settings.intervalMillis() > 0) {
      thread.scheduleWithFixedDelay(this::periodicTick, settings.intervalMillis(), settings.intervalMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /** Takes a savepoint triggered by the user; see {@link #triggerSavepoint(String)}. */
  public CompletableFuture<CheckpointMetadata> triggerSavepoint() {
    return triggerSavepoint("user");
  }

  /**
   * Takes a savepoint as soon as no checkpoint is in flight; completes when it is durable (copied
   * into its directory) and committed. Requests that wait for the same savepoint share it; it
   * records the first one's {@code trigger}.
   *
   * @param trigger who asks, recorded in the savepoint's entry ({@link CheckpointStore.Summary})
   */
  public CompletableFuture<CheckpointMetadata> triggerSavepoint(String trigger) {
    CompletableFuture<CheckpointMetadata> f = new CompletableFuture<>();
    thread.execute(() -> {
      if (stopped || target == null) {
        f.completeExceptionally(new IllegalStateException("the job is not running"));
        return;
      }
      savepointWaiters.add(f);
      savepointTriggers.add(trigger);
      savepointRequested = true;
      tick();
    });
    return f;
  }

  /** Triggers a checkpoint now (if none is in flight); completes when it completes or is aborted. */
  public CompletableFuture<CheckpointMetadata> triggerCheckpoint() {
    return triggerCheckpoint(false);
  }

  /**
   * Like {@link #triggerCheckpoint()}; with {@code stopSources} a checkpoint triggered by this call
   * stops the sources at its barrier ({@link CheckpointTarget#trigger(long, boolean)}), for a run
   * that ends once it completes. A checkpoint already in flight is joined as it is.
   */
  public CompletableFuture<CheckpointMetadata> triggerCheckpoint(boolean stopSources) {
    CompletableFuture<CheckpointMetadata> f = new CompletableFuture<>();
    thread.execute(() -> {
      if (pending == null) {
        stopSourcesRequested = stopSources;
        try {
          tick();
        } finally {
          stopSourcesRequested = false;
        }
      }
      if (pending == null) {
        f.completeExceptionally(new IllegalStateException("no checkpoint could be triggered"));
      } else {
        pending.waiters.add(f);
      }
    });
    return f;
  }

  /** Completes with the last checkpoint, taken once every task has finished (bounded jobs). */
  public CompletableFuture<CheckpointMetadata> finalCheckpoint() {
    return finalCheckpoint;
  }

  // ---- acks, from task and upload threads ----

  @Override
  public void acknowledge(long checkpointId, TaskState state) {
    long arrived = System.nanoTime();
    onThread(() -> {
      if (pending != null && pending.id == checkpointId) {
        pending.acks.put(state.taskId(), state);
        pending.ackNanos.put(state.taskId(), arrived - pending.startNanos);
        tryComplete();
      }
    });
  }

  @Override
  public void decline(long checkpointId, String task, Throwable reason) {
    onThread(() -> {
      if (pending != null && pending.id == checkpointId) {
        abort("task " + task + " could not take its part: " + reason.getMessage());
      }
    });
  }

  @Override
  public void finished(TaskState state) {
    onThread(() -> {
      finals.put(state.taskId(), state);
      if (pending != null) {
        tryComplete();
      }
      maybeFinal();
    });
  }

  private void onThread(Runnable r) {
    try {
      thread.execute(r);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed: the run is over, late acks do not matter
    }
  }

  // ---- on the coordinator thread ----

  /**
   * A tick of the interval. What it throws is logged and the next tick comes all the same: an
   * exception escaping a periodic task would cancel it, and the run would silently never checkpoint
   * again.
   */
  private void periodicTick() {
    try {
      tick();
    } catch (RuntimeException e) {
      System.getLogger(CheckpointCoordinator.class.getName()).log(System.Logger.Level.WARNING,
          "triggering a checkpoint of job " + settings.job() + " failed; the next interval tries again", e);
    }
  }

  private void tick() {
    if (stopped || target == null || pending != null || allFinished()) {
      return;
    }
    String kind = savepointRequested ? CheckpointMetadata.SAVEPOINT : CheckpointMetadata.CHECKPOINT;
    if (savepointRequested) {
      savepointRequested = false;
    }
    pending = new Pending(nextId++, kind);
    if (kind.equals(CheckpointMetadata.SAVEPOINT)) {
      pending.waiters.addAll(savepointWaiters);
      savepointWaiters.clear();
      pending.trigger = savepointTriggers.isEmpty() ? null : savepointTriggers.get(0);
      savepointTriggers.clear();
    }
    long id = pending.id;
    if (settings.timeoutMillis() > 0) {
      thread.schedule(() -> {
        if (pending != null && pending.id == id) {
          abort("not complete after " + settings.timeoutMillis() + " ms");
        }
      }, settings.timeoutMillis(), TimeUnit.MILLISECONDS);
    }
    long slow = Math.min(SLOW_WARNING_MILLIS, settings.timeoutMillis() > 0 ? settings.timeoutMillis() / 2 : SLOW_WARNING_MILLIS);
    thread.schedule(() -> {
      Pending p = pending;
      if (p != null && p.id == id) {
        System.getLogger(CheckpointCoordinator.class.getName()).log(System.Logger.Level.WARNING,
            () -> p.kind + " " + id + " of job " + settings.job() + " is not complete after " + slow + " ms: "
                + p.acks.size() + " of " + target.taskCount() + " tasks acknowledged " + new java.util.TreeSet<>(
                p.acks.keySet()) + ", " + finals.size() + " finished");
      }
    }, slow, TimeUnit.MILLISECONDS);
    try {
      if (stopSourcesRequested && kind.equals(CheckpointMetadata.CHECKPOINT)) {
        target.trigger(id, true);
      } else {
        target.trigger(id);
      }
    } catch (RuntimeException e) {
      // a worker that cannot be told (gone, unreachable): this checkpoint cannot complete; the next
      // interval tries again, and a lost worker fails the attempt on its own
      abort("the tasks could not be told to take it: " + e.getMessage());
      return;
    }
    tryComplete(); // every task may have finished already
  }

  private boolean allFinished() {
    return target != null && finals.size() == target.taskCount();
  }

  private void tryComplete() {
    Pending p = pending;
    List<TaskState> states = new ArrayList<>();
    for (TaskState f : finals.values()) {
      if (f.lastCheckpoint() < p.id && !p.acks.containsKey(f.taskId())) {
        states.add(f);
      }
    }
    states.addAll(p.acks.values());
    if (states.size() < target.taskCount()) {
      return;
    }
    pending = null;
    complete(p.id, p.kind, p.trigger, p.startNanos, p.triggeredAtMillis, states, p.ackNanos, p.waiters);
    if (savepointRequested) {
      tick();
    }
  }

  private void maybeFinal() {
    if (pending != null || !allFinished() || finalCheckpoint.isDone() || stopped) {
      return;
    }
    complete(nextId++, CheckpointMetadata.CHECKPOINT, null, System.nanoTime(), System.currentTimeMillis(),
        new ArrayList<>(finals.values()), Map.of(), List.of());
  }

  private void complete(long id, String kind, String trigger, long startNanos, long triggeredAtMillis,
      List<TaskState> states, Map<String, Long> ackNanos, List<CompletableFuture<CheckpointMetadata>> waiters) {
    states.sort(Comparator.comparingInt(TaskState::stage).thenComparingInt(TaskState::subtask));
    CheckpointMetadata taken = new CheckpointMetadata(settings.job(), id, kind, epoch, settings.maxParallelism(),
        System.currentTimeMillis(), states, settings.stateLayouts());
    CheckpointMetadata md = taken;
    String path;
    long metadataBytes;
    try {
      store.checkNotFenced(epoch);
      if (taken.isSavepoint()) {
        copiedSavepoints.add(taken); // released by the next checkpoint, whether the copy succeeds or not
        md = new SavepointCopier(store, backends).copy(taken);
      }
      CheckpointStore.Written written = store.writeMetadataObject(md);
      path = written.path();
      metadataBytes = written.bytes();
      pointerVersion = store.advance(epoch, md, path, pointerVersion);
      if (settings.retainCompletedState()) {
        retainState(taken); // released when discarded (or, for a savepoint, once its copy replaced it)
      }
    } catch (FencedException e) {
      stop(new IllegalStateException("a newer run of job " + settings.job() + " took over (epoch " + epoch
          + " is fenced); this run stops", e), waiters);
      return;
    } catch (io.tributary.scheduler.metadata.LeaseLostException e) {
      stop(new IllegalStateException("this control plane no longer leads; the run of job " + settings.job()
          + " (epoch " + epoch + ") stops without recording checkpoint " + id, e), waiters);
      return;
    } catch (RuntimeException e) {
      waiters.forEach(w -> w.completeExceptionally(e));
      listener.aborted(id, "cannot record " + kind + " " + id + ": " + e.getMessage());
      if (allFinished() && !finalCheckpoint.isDone()) {
        // nothing will trigger again: retry the last checkpoint after a pause
        thread.schedule(this::maybeFinal, FINAL_RETRY_MILLIS, TimeUnit.MILLISECONDS);
      }
      return;
    }
    long durationMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    CheckpointFigures figures = CheckpointFigures.of(states, ackNanos, countedFinals, store.objects());
    CheckpointStore.Summary summary = figures.summary(trigger, triggeredAtMillis, durationMillis, metadataBytes);
    store.addRetained(md, path, summary);
    listener.recorded(md);
    try {
      target.notifyComplete(md);
    } catch (RuntimeException e) {
      stop(new IllegalStateException("committing the output of " + kind + " " + id + " failed: " + e.getMessage(), e),
          waiters);
      return;
    }
    listener.completed(md, new CheckpointStats(id, kind, path, durationMillis, figures.maxAlignmentNanos(),
        figures.maxSyncNanos(), figures.stateBytes(), figures.incrementalBytes(), summary,
        figures.operatorStateBytes(), figures.stageAckMillis()));
    for (CompletableFuture<CheckpointMetadata> w : waiters) {
      w.complete(md);
    }
    if (!md.isSavepoint()) {
      retained.add(new CheckpointStore.Retained(id, kind, path));
      while (retained.size() > settings.retain()) {
        discard(retained.remove(0));
      }
      releaseCopiedSavepoints();
    }
    if (allFinished() && states.stream().allMatch(TaskState::finished)) {
      finalCheckpoint.complete(md);
    } else {
      maybeFinal();
    }
  }

  private void abort(String reason) {
    Pending p = pending;
    pending = null;
    IllegalStateException e = new IllegalStateException(p.kind + " " + p.id + " aborted: " + reason);
    p.waiters.forEach(w -> w.completeExceptionally(e));
    listener.aborted(p.id, reason);
    maybeFinal();
    if (savepointRequested) {
      tick();
    }
  }

  private void stop(Throwable reason, List<CompletableFuture<CheckpointMetadata>> waiters) {
    stopped = true;
    waiters.forEach(w -> w.completeExceptionally(reason));
    finalCheckpoint.completeExceptionally(reason);
    listener.failed(reason);
  }

  /**
   * Releases the state tasks wrote for savepoints, which their copies replaced: once a later
   * checkpoint completed, the tasks' snapshots hold what they still build on (or the run is over).
   */
  private void releaseCopiedSavepoints() {
    for (CheckpointMetadata md : copiedSavepoints) {
      garbage.execute(() -> release(md));
    }
    copiedSavepoints.clear();
  }

  /**
   * A checkpoint beyond the retained number: forget it now, and release and delete what only it
   * referenced in the background.
   */
  private void discard(CheckpointStore.Retained r) {
    CheckpointMetadata md;
    try {
      md = store.load(r.path());
    } catch (RuntimeException e) {
      store.removeRetained(r.kind(), r.id());
      return;
    }
    store.removeRetained(r.kind(), r.id());
    garbage.execute(() -> {
      release(md);
      store.deleteObjects(List.of(r.path()));
    });
  }

  /** Releases {@code md}'s keyed state in the backends and deletes its timer and in-flight objects. */
  private void release(CheckpointMetadata md) {
    java.util.Set<String> objects = new java.util.LinkedHashSet<>();
    for (TaskState t : md.tasks()) {
      t.operators().forEach((op, s) -> {
        if (s.keyed() != null) {
          StateBackendFactory f = backends.get(s.keyed().backend());
          if (f != null) {
            f.release(md.job(), op, s.keyed());
          }
        }
        if (s.timers() != null) {
          objects.add(s.timers());
        }
        if (s.inFlight() != null) {
          objects.add(s.inFlight().object()); // named by each chain head it fed: once
        }
      });
    }
    store.deleteObjects(new ArrayList<>(objects));
  }

  private void retainState(CheckpointMetadata md) {
    for (TaskState t : md.tasks()) {
      t.operators().forEach((op, s) -> {
        StateSnapshot k = s.keyed();
        if (k != null && backends.containsKey(k.backend())) {
          backends.get(k.backend()).retain(md.job(), op, k);
        }
      });
    }
  }

  /** Stops triggering; a checkpoint in flight is abandoned. */
  @Override
  public void close() {
    if (thread.isShutdown()) {
      return;
    }
    thread.execute(() -> {
      stopped = true;
      releaseCopiedSavepoints(); // the run is over: nothing builds on them any more
      garbage.shutdown(); // what is queued still runs
    });
    thread.shutdown();
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
