package io.tributary.scheduler.lifecycle;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.spec.InvalidSpecException;
import io.tributary.scheduler.policy.TenantPolicy;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.scheduler.spec.ParallelismSpec;
import io.tributary.scheduler.spec.SpecError;
import io.tributary.scheduler.spec.sql.SqlJob;
import io.tributary.scheduler.spec.sql.SqlJobs;
import io.tributary.protocol.Failure;
import io.tributary.scheduler.observe.ControlMetrics;
import io.tributary.scheduler.observe.JobMetricsTracker;
import io.tributary.scheduler.observe.JobMetricsView;
import io.tributary.scheduler.observe.JobOutput;
import io.tributary.scheduler.observe.OutputFeeds;
import io.tributary.scheduler.observe.OutputListener;
import io.tributary.scheduler.observe.OutputRecord;
import io.tributary.scheduler.observe.OutputSubscription;
import io.tributary.scheduler.observe.SampleBuffer;
import java.util.Arrays;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The job lifecycle of the control plane: what the REST API calls. Jobs live in projects; each
 * job's record holds its spec and its desired state, and the manager drives what the job does —
 * its {@link ObservedState} — towards it: at once on every API call, and by a periodic reconcile
 * loop ({@link Settings#reconcileInterval()}) that catches whatever changed otherwise (a record
 * written to the metadata store by another process, a job whose record disappeared). Each running
 * job has a {@link io.tributary.scheduler.master.JobMaster} that runs its attempts on the
 * services' {@link io.tributary.protocol.WorkerPool}.
 *
 * <p><b>Contract.</b> Thread-safe. Every method returns records and throws {@link
 * InvalidSpecException} (400, with JSON pointers into the spec) or a {@link ControlException}:
 * {@link InvalidRequestException} 400, {@link NotFoundException} 404, {@link
 * StateConflictException} 409, {@link PreconditionFailedException} 412, {@link
 * OperationFailedException} 500/503. Actions on one job run one at a time; an action that waits
 * longer than {@link Settings#actionTimeout()} for another one is refused (409, retryable). Reads
 * never wait for actions.
 *
 * <p><b>Versions.</b> {@link JobView#version()} is the version of the job's record: the ETag. It
 * changes when the user changes the job (its spec, desired state, restore policy or parallelism),
 * not when the job's observed state or checkpoints change. An {@code ifMatch} argument is null (no
 * precondition), 0 (the job must not exist: {@code If-None-Match: *}) or the version read.
 *
 * <p><b>Restart.</b> Everything a job needs is kept in the services' metadata store and checkpoint
 * object store. A new manager over the same stores, after {@link #close()}, resumes every job that
 * should run from its latest checkpoint; STOPPED, FAILED and FINISHED jobs stay so. {@link
 * #close()} ends the runs without savepoints and without changing any job's stored state.
 *
 * <p><b>Delete.</b> Deleting a job ends its run and removes its record, status, events and
 * checkpoints (entries, objects, state files). Its self-contained savepoints stay, unless asked to
 * go too, with their entries in the metadata store ({@code jobs/<project>--<name>/savepoints/}): a job
 * created again with the same name starts without state, but can be resumed from the savepoints of
 * its predecessor, which its savepoint list shows.
 */
public final class JobManager implements AutoCloseable {
  /** Largest spec text accepted, in UTF-8 bytes (the metadata store holds at most 256 KiB per item). */
  public static final int MAX_SPEC_BYTES = 200 * 1024;
  /** How often jobs' metrics are sampled. */
  static final long SAMPLE_MILLIS = 1000;
  /** How often subscribers of jobs' output get what is new. */
  static final long OUTPUT_POLL_MILLIS = 200;
  /** How often the source watch looks at idle jobs (and at running jobs whose backlog is due). */
  static final long SOURCE_WATCH_MILLIS = 1000;

  /**
   * @param restarts how a failed run restarts before the job goes FAILED
   * @param defaultCheckpointInterval for specs without {@code checkpoints}: every managed job
   *     checkpoints, so that it keeps its state through stops, rescales and restarts
   * @param checkpointTimeout a checkpoint not complete after this is aborted
   * @param actionTimeout the longest an action waits for a savepoint, for a run to stop, or for
   *     another action on the same job
   * @param reconcileInterval how often every job's observed state is driven towards its record
   * @param policy what projects' jobs may reach and use (file directories, endpoints, quotas)
   * @param tokenKey the server's secret that token hashes are keyed with (kept outside the metadata
   *     store, so that a copy of the store alone allows no guessing); null for plain SHA-256
   * @param reattachWait how long a running job that this control plane takes over (at start, or as
   *     the new leader) waits for the workers that still run it, to follow its attempt instead of
   *     restarting it from its latest checkpoint (zero: it restarts)
   */
  public record Settings(RestartPolicy restarts, Duration defaultCheckpointInterval, Duration checkpointTimeout,
      Duration actionTimeout, Duration reconcileInterval, Clock clock, TenantPolicy policy, byte[] tokenKey,
      Duration reattachWait) {
    public Settings {
      Objects.requireNonNull(restarts, "restarts");
      Objects.requireNonNull(reattachWait, "reattachWait");
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(policy, "policy");
      if (reconcileInterval.isNegative() || reconcileInterval.isZero()) {
        throw new IllegalArgumentException("reconcileInterval must be positive, got " + reconcileInterval);
      }
    }

    /** The defaults: {@link RestartPolicy#DEFAULT}, checkpoints every 10 s, reconciling every 2 s. */
    public static Settings defaults() {
      return new Settings(RestartPolicy.DEFAULT, Duration.ofSeconds(10), Duration.ofMinutes(10), Duration.ofMinutes(2),
          Duration.ofSeconds(2), Clock.systemUTC(), TenantPolicy.open(), null, DEFAULT_REATTACH_WAIT);
    }

    public Settings withRestarts(RestartPolicy r) {
      return new Settings(r, defaultCheckpointInterval, checkpointTimeout, actionTimeout, reconcileInterval, clock,
          policy, tokenKey, reattachWait);
    }

    public Settings withActionTimeout(Duration t) {
      return new Settings(restarts, defaultCheckpointInterval, checkpointTimeout, t, reconcileInterval, clock, policy,
          tokenKey, reattachWait);
    }

    public Settings withReconcileInterval(Duration t) {
      return new Settings(restarts, defaultCheckpointInterval, checkpointTimeout, actionTimeout, t, clock, policy,
          tokenKey, reattachWait);
    }

    /** These settings with {@code p} as the policy of every project. */
    public Settings withPolicy(TenantPolicy p) {
      return new Settings(restarts, defaultCheckpointInterval, checkpointTimeout, actionTimeout, reconcileInterval,
          clock, p, tokenKey, reattachWait);
    }

    /**
     * These settings, a job taken over from another control plane waiting up to {@code w} for the
     * workers that still run it, to follow its running attempt instead of restarting it (zero: never).
     */
    public Settings withReattachWait(Duration w) {
      return new Settings(restarts, defaultCheckpointInterval, checkpointTimeout, actionTimeout, reconcileInterval,
          clock, policy, tokenKey, w);
    }

    /** How long a taken-over job waits for the workers that still run it, unless told otherwise. */
    public static final Duration DEFAULT_REATTACH_WAIT = Duration.ofSeconds(10);

    /** These settings with token hashes keyed by {@code key}. */
    public Settings withTokenKey(byte[] key) {
      return new Settings(restarts, defaultCheckpointInterval, checkpointTimeout, actionTimeout, reconcileInterval,
          clock, policy, key == null ? null : key.clone(), reattachWait);
    }
  }

  private final JobContext ctx;
  private final ProjectStore projects;
  private final TokenStore tokens;
  private final QuotaChecks quotas;
  private final JobActions actions;
  private final JobViews views;
  private final ConcurrentMap<String, ManagedJob> jobs = new ConcurrentHashMap<>();
  private final ControlMetrics metrics;
  private final OutputFeeds outputs = new OutputFeeds();
  private final ScheduledExecutorService metricsThread;
  private final ScheduledExecutorService reconcileThread;
  private final ScheduledExecutorService sourceWatchThread;
  private final Reconciler reconciler;
  private final Leadership leadership;
  private volatile LeaderLease lease;
  private volatile boolean closed;

  private JobManager(Settings settings, ControlPlaneServices services, Leadership leadership) {
    this.leadership = leadership;
    this.ctx = new JobContext(settings, services, leadership);
    this.projects = new ProjectStore(services.metadata(), settings.clock());
    this.tokens = new TokenStore(services.metadata(), settings.clock(), projects, settings.tokenKey(),
        settings.policy().quotas().tokens());
    this.quotas = new QuotaChecks(settings.policy().quotas(), services.metadata(), ctx.jobs);
    this.actions = new JobActions(ctx);
    this.views = new JobViews(ctx);
    this.metrics = new ControlMetrics(jobs::values, Arrays.stream(ObservedState.values()).map(Enum::name).toList(),
        settings.clock(), this::autoscale);
    this.reconciler = new Reconciler(ctx, actions, jobs, this::forget);
    this.metricsThread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "control-metrics");
      t.setDaemon(true);
      return t;
    });
    this.reconcileThread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "control-reconcile") {
        @Override
        public void interrupt() {
          if (!closed) {
            // nothing here interrupts it before close(): an interrupt aborts the metadata calls of a
            // take-over half-way, so say who did it
            System.getLogger(JobManager.class.getName()).log(System.Logger.Level.WARNING,
                "the reconcile thread is interrupted while the control plane is open",
                new IllegalStateException("interrupted by thread " + Thread.currentThread().getName()));
          }
          super.interrupt();
        }
      };
      t.setDaemon(true);
      return t;
    });
    this.sourceWatchThread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "control-source-watch");
      t.setDaemon(true);
      return t;
    });
    SourceWatch watch = new SourceWatch(ctx, jobs::values, this::wake);
    sourceWatchThread.scheduleWithFixedDelay(() -> guarded("watching sources", watch::poll), SOURCE_WATCH_MILLIS,
        SOURCE_WATCH_MILLIS, TimeUnit.MILLISECONDS);
    metricsThread.scheduleWithFixedDelay(() -> guarded("metrics sampling", metrics::sample), 0, SAMPLE_MILLIS,
        TimeUnit.MILLISECONDS);
    metricsThread.scheduleWithFixedDelay(() -> guarded("output feeding", outputs::poll), OUTPUT_POLL_MILLIS,
        OUTPUT_POLL_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * Acts on a decision of a job's autoscaler (metrics thread): each stage it rescales runs at its own
   * new parallelism (by the id of its first operator, like a user's rescale of stages), the others
   * stay; on the reconcile thread. The event says which stages changed and with what numbers.
   */
  private void autoscale(io.tributary.scheduler.observe.ObservedJob observed,
      io.tributary.scheduler.autoscale.Autoscaler.Decision decision) {
    io.tributary.plan.ExecutionPlan plan = observed.metrics().plan();
    if (!(observed instanceof ManagedJob job) || closed || plan == null) {
      return;
    }
    Map<String, Integer> next = new java.util.LinkedHashMap<>();
    List<String> changes = new ArrayList<>();
    for (io.tributary.scheduler.autoscale.ScalingDecision d : decision.stages()) {
      if (d.rescales() && d.to() >= 1 && d.stageId() < plan.stages().size()) {
        String head = io.tributary.scheduler.planner.Planner.head(plan.stage(d.stageId()));
        next.put(head, d.to());
        changes.add(head + " " + d.from() + " → " + d.to());
      }
    }
    if (next.isEmpty()) {
      return;
    }
    String what = String.join(", ", changes);
    String why = decision.stages().stream().filter(s -> s.to() != s.from())
        .map(io.tributary.scheduler.autoscale.ScalingDecision::explanation)
        .collect(java.util.stream.Collectors.joining("; "));
    try {
      reconcileThread.execute(() -> guarded("autoscaling job " + job.project() + "/" + job.name(), () -> {
        ctx.events.append(job.project(), job.name(), JobEvent.Type.AUTOSCALED, null, null,
            "autoscaler: " + what + " (" + why + ")");
        try {
          rescale(job.project(), job.name(), null, next);
        } catch (RuntimeException e) {
          if (!closed) {
            ctx.events.append(job.project(), job.name(), JobEvent.Type.AUTOSCALED, null, null,
                "autoscaler: the rescale (" + what + ") was not applied: " + e.getMessage());
          }
          throw e;
        }
      }));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing: no more decisions
    }
  }

  /**
   * Resumes an IDLE job whose sources have new input (idle-watch thread): on the reconcile thread,
   * under the job's actions lock, if it is still IDLE and to run.
   */
  private void wake(ManagedJob job, long pending) {
    try {
      reconcileThread.execute(() -> guarded("resuming idle job " + job.project() + "/" + job.name(), () -> {
        try {
          withJob(job.project(), job.name(), false, j -> {
            JobRecord record = record(job.project(), job.name());
            actions.wake(j, record, j.spec(record), pending);
            return null;
          });
        } catch (NotFoundException e) {
          // deleted meanwhile
        }
      }));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  /** A periodic task that fails must not stop the next runs; what fails once closing is not news. */
  private void guarded(String what, Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      if (closed) {
        return; // interrupted by close(): nothing went wrong
      }
      System.getLogger(JobManager.class.getName()).log(System.Logger.Level.WARNING, what + " failed", e);
    }
  }

  /**
   * Opens the control plane over {@code services} and takes over their stored jobs: those that
   * should run start again from their latest checkpoint. From then on, the reconcile loop runs every
   * {@link Settings#reconcileInterval()}. The manager owns the services and closes them.
   */
  public static JobManager open(Settings settings, ControlPlaneServices services) {
    JobManager m = create(settings, services, Leadership.ALONE);
    try {
      m.recoverJobs();
    } catch (RuntimeException e) {
      m.close();
      throw e;
    }
    m.scheduleReconcile();
    return m;
  }

  /**
   * Opens one of several control-plane replicas over shared {@code services}: it serves reads at
   * once, and runs jobs only while it holds the leader lease (see {@link #contendForLead}). The
   * manager owns the services and closes them.
   */
  public static JobManager replica(Settings settings, ControlPlaneServices services, LeaderLease lease) {
    JobManager m = create(settings, services, lease);
    m.lease = lease;
    m.scheduleReconcile();
    return m;
  }

  private static JobManager create(Settings settings, ControlPlaneServices services, Leadership leadership) {
    try {
      return new JobManager(settings, services, leadership);
    } catch (RuntimeException e) {
      services.close();
      throw e;
    }
  }

  private void scheduleReconcile() {
    long every = ctx.settings.reconcileInterval().toMillis();
    reconcileThread.scheduleWithFixedDelay(() -> guarded("reconciling", this::reconcile), every, every,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Starts contending for the leader lease of a {@link #replica}: once elected, the first reconcile
   * pass takes over every stored job (those that should run start from their latest checkpoint);
   * when the lease is lost, every run here ends without touching the stored state, and the
   * replica serves as a follower until it is elected again.
   *
   * @param url where the other replicas reach this one's API (they forward to the leader)
   */
  public void contendForLead(String url) {
    LeaderLease l = lease;
    if (l == null) {
      throw new IllegalStateException("a control plane alone on its store always leads");
    }
    l.start(url, new LeaderLease.Listener() {
      @Override
      public void elected(long epoch) {
        reconcileThread.execute(() -> guarded("taking over the jobs", JobManager.this::reconcile));
      }

      @Override
      public void lost(String why) {
        reconcileThread.execute(() -> stepDown(why));
      }
    });
  }

  /** Whether this process runs the jobs now (always, alone on its store). */
  public Leadership leadership() {
    return leadership;
  }

  /** Ends every run here without touching the stored state: another replica leads now. */
  private void stepDown(String why) {
    for (ManagedJob job : List.copyOf(jobs.values())) {
      try {
        job.shutdown(ctx.actionTimeout());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        System.getLogger(JobManager.class.getName()).log(System.Logger.Level.WARNING,
            "ending job " + job.name + " on stepping down failed", e);
      }
      forget(job, "this control-plane replica no longer leads (" + why + "); reconnect to follow the job");
    }
  }

  private void recoverJobs() {
    for (Project p : projects.list()) {
      for (var item : ctx.storage.metadata().queryAll(ControlKeys.jobs(p.name()))) {
        JobRecord record = JobStore.decode(item);
        ManagedJob job = new ManagedJob(record.project(), record.name(), ctx);
        jobs.put(job.internalName, job);
        reconciler.takeOver(job, record);
      }
    }
  }

  /**
   * One pass of the reconcile loop, now: every job's observed state is driven towards its record
   * (see {@link Reconciler}). Jobs busy with an action are left to the next pass.
   */
  public void reconcile() {
    if (!closed && leadership.leading()) {
      reconciler.pass(projects.list());
    }
  }

  /** Forgets a job whose record is gone: its metrics, its output subscriptions. */
  private void forget(ManagedJob job, String reason) {
    jobs.remove(job.internalName, job);
    metrics.remove(job);
    outputs.jobGone(job, reason);
  }

  /** The projects. */
  public ProjectStore projects() {
    return projects;
  }

  /** The API tokens of every project, and the administrator token. */
  public TokenStore tokens() {
    return tokens;
  }

  /** What {@link #apply} did. */
  public enum ApplyOutcome { CREATED, UPDATED, UNCHANGED }

  /** The result of an {@link #apply}: what it did, and the job afterwards. */
  public record ApplyResult(ApplyOutcome outcome, JobView job) {}

  /**
   * Applies {@code specText} (YAML or JSON) as job {@code name}: creates and starts the job if it
   * does not exist; changes nothing if the spec means the same as the stored one (however it is
   * formatted); otherwise stores it and rolls it out — a RUNNING job by savepoint, stop and start of
   * the new spec from the savepoint; a FAILED job that should run from its latest checkpoint; a
   * stopped or finished job on its next start.
   *
   * <p>If the new spec cannot restore the old state (another {@code maxParallelism}, say), the job
   * goes FAILED, its failure saying so (a USER error) and naming the savepoint that holds the state
   * from before the change: applying the previous spec again continues from it, a resume with
   * restore {@code none} runs the new spec without state. A parallelism set by {@link #rescale} is
   * kept across spec changes that leave the spec's {@code parallelism} as it was and allow it.
   *
   * @param ifMatch null, 0 (must not exist) or the version the caller read
   * @throws InvalidSpecException if the spec is invalid, cannot be planned, or names another job
   *     (pointer {@code /name})
   */
  public ApplyResult apply(String project, String name, String specText, Long ifMatch) {
    return apply(project, name, specText, ifMatch, null);
  }

  /**
   * Like {@link #apply(String, String, String, Long)}; a job created with {@code initial}
   * {@link DesiredState#STOPPED} is stored without being started (it starts on its first resume).
   * An existing job keeps its desired state: change it with {@link #stop} or {@link #resume}.
   */
  public ApplyResult apply(String project, String name, String specText, Long ifMatch, DesiredState initial) {
    return apply(project, name, specText, ifMatch, initial, null);
  }

  /**
   * Applies the SQL job {@code sql} as job {@code name}, like {@link #apply(String, String, String,
   * Long, DesiredState)} with the spec it compiles to ({@link SqlJobs}); the record keeps the text.
   * A text that compiles to the applied spec changes nothing.
   *
   * @throws InvalidSpecException with every error at its line and column of {@code sql}
   */
  public ApplyResult applySql(String project, String name, String sql, Long ifMatch, DesiredState initial) {
    SqlJob job = compileSql(sql, name);
    try {
      return apply(project, name, job.specJson(), ifMatch, initial, sql);
    } catch (InvalidSpecException e) {
      throw job.locate(e);
    }
  }

  /**
   * A dry run of {@link #applySql}.
   *
   * @param name the job's name unless {@code sql} sets one; null: it must
   */
  public PlanPreview planSql(String project, String sql, String name) {
    projects.checkExists(project);
    SqlJob job = compileSql(sql, name);
    try {
      return plan(project, job.specJson());
    } catch (InvalidSpecException e) {
      throw job.locate(e);
    }
  }

  private static SqlJob compileSql(String sql, String name) {
    if (sql != null && sql.getBytes(StandardCharsets.UTF_8).length > MAX_SPEC_BYTES) {
      throw new InvalidSpecException(List.of(SpecError.at(1, 1, "the SQL text is larger than " + MAX_SPEC_BYTES
          + " bytes")));
    }
    return SqlJobs.compile(sql, name);
  }

  private ApplyResult apply(String project, String name, String specText, Long ifMatch, DesiredState initial,
      String sql) {
    JobNames.checkJob(name);
    projects.checkExists(project);
    JobSpec spec = parse(name, specText);
    quotas.spec(spec);
    String fingerprint = SpecFingerprint.of(spec);
    if (!leadership.leading()) {
      return applyAsFollower(project, name, specText, spec, fingerprint, ifMatch, initial, sql);
    }
    return withJob(project, name, true, job -> {
      Optional<JobRecord> current = ctx.jobs.get(project, name);
      JobStore.checkIfMatch("job '" + name + "'", ifMatch, current);
      if (current.isEmpty()) {
        ctx.plan(spec, null, project, job.internalName);
        quotas.newJob(project);
        if (initial != DesiredState.STOPPED) {
          quotas.parallelism(project, name, spec.parallelism().initial(), "/spec/parallelism");
        }
        JobRecord fresh = JobRecord.create(project, name, specText, fingerprint, ctx.now(), sql);
        boolean stopped = initial == DesiredState.STOPPED;
        if (stopped) {
          fresh = fresh.withDesired(DesiredState.STOPPED, fresh.restore(), fresh.createdAt());
        }
        JobRecord record = create(fresh, ifMatch);
        ctx.events.append(project, name, JobEvent.Type.CREATED, null, null,
            "created with spec generation 1 (" + fingerprint + ")" + (stopped ? ", stopped until resumed" : ""));
        if (!stopped) {
          actions.create(job, record, spec);
        }
        return new ApplyResult(ApplyOutcome.CREATED, views.of(record, job));
      }
      JobRecord old = current.get();
      if (old.fingerprint().equals(fingerprint)) {
        return new ApplyResult(ApplyOutcome.UNCHANGED, views.of(old, job));
      }
      Integer parallelism = keptParallelism(old, job, spec);
      Map<String, Integer> stages = keptStages(old, () -> job.spec(old), spec);
      checkStateCarriesOver(old, spec, ctx.plan(spec, parallelism, stages, project, job.internalName), job.state());
      if (old.desired() == DesiredState.RUNNING) {
        quotas.parallelism(project, name, widest(parallelism != null ? parallelism : spec.parallelism().initial(),
            stages), "/spec/parallelism");
      }
      JobRecord record = save(old.withSpec(specText, fingerprint, parallelism, stages, ctx.now(), sql), ifMatch);
      ctx.events.append(project, name, JobEvent.Type.SPEC_CHANGED, null, null,
          "spec generation " + record.generation() + " applied (" + fingerprint + ")");
      actions.specChanged(job, record, spec);
      return new ApplyResult(ApplyOutcome.UPDATED, views.of(record, job));
    });
  }

  /**
   * A changed spec for a job that is to run restores the job's latest checkpoint: refused (409)
   * when one of its operators could not restore its state, before the running job is touched.
   */
  private void checkStateCarriesOver(JobRecord old, JobSpec spec, ExecutionPlan next, ObservedState state) {
    if (old.desired() != DesiredState.RUNNING) {
      return; // a job at rest takes the spec; its resume checks the state it restores
    }
    String mismatch = ctx.stateMismatch(old.internalName(), RestorePolicy.LATEST,
        spec.state().allowsNonRestoredState(), () -> next);
    if (mismatch != null) {
      throw new StateConflictException(state, "job '" + old.name() + "' cannot take this spec with its state: "
          + mismatch + ". Change the spec back; or stop the job, apply this spec, and resume from none to start "
          + "without state", false);
    }
  }

  /**
   * {@link #apply} on a replica that does not lead (while no replica leads, during a takeover): the
   * record is validated and written as the desired state, with the same checks; the leader's
   * reconcile loop carries it out (it starts a new job, rolls a changed spec out) once it leads.
   */
  private ApplyResult applyAsFollower(String project, String name, String specText, JobSpec spec, String fingerprint,
      Long ifMatch, DesiredState initial, String sql) {
    String internal = JobNames.internal(project, name);
    Optional<JobRecord> current = ctx.jobs.get(project, name);
    JobStore.checkIfMatch("job '" + name + "'", ifMatch, current);
    String by = " (stored as the desired state by a replica that does not lead; the leader carries it out)";
    if (current.isEmpty()) {
      ctx.plan(spec, null, project, internal);
      quotas.newJob(project);
      boolean stopped = initial == DesiredState.STOPPED;
      if (!stopped) {
        quotas.parallelism(project, name, spec.parallelism().initial(), "/spec/parallelism");
      }
      JobRecord fresh = JobRecord.create(project, name, specText, fingerprint, ctx.now(), sql);
      if (stopped) {
        fresh = fresh.withDesired(DesiredState.STOPPED, fresh.restore(), fresh.createdAt());
      }
      JobRecord record = create(fresh, ifMatch);
      ctx.events.append(project, name, JobEvent.Type.CREATED, null, null,
          "created with spec generation 1 (" + fingerprint + ")" + by);
      return new ApplyResult(ApplyOutcome.CREATED, views.of(record, null));
    }
    JobRecord old = current.get();
    if (old.fingerprint().equals(fingerprint)) {
      return new ApplyResult(ApplyOutcome.UNCHANGED, views.of(old, null));
    }
    Integer parallelism = keptParallelism(old, () -> JobSpecs.parse(old.spec()), spec);
    Map<String, Integer> stages = keptStages(old, () -> JobSpecs.parse(old.spec()), spec);
    checkStateCarriesOver(old, spec, ctx.plan(spec, parallelism, stages, project, internal), null);
    if (old.desired() == DesiredState.RUNNING) {
      quotas.parallelism(project, name, widest(parallelism != null ? parallelism : spec.parallelism().initial(),
          stages), "/spec/parallelism");
    }
    JobRecord record = save(old.withSpec(specText, fingerprint, parallelism, stages, ctx.now(), sql), ifMatch);
    ctx.events.append(project, name, JobEvent.Type.SPEC_CHANGED, null, null,
        "spec generation " + record.generation() + " applied (" + fingerprint + ")" + by);
    return new ApplyResult(ApplyOutcome.UPDATED, views.of(record, null));
  }

  /**
   * What {@link #plan} found.
   *
   * @param name the job's name, as the spec (or the SQL job) gives it
   */
  public record PlanPreview(io.tributary.plan.ExecutionPlan plan, ApplyOutcome change, String description,
      String name) {
    PlanPreview(io.tributary.plan.ExecutionPlan plan, ApplyOutcome change, String description) {
      this(plan, change, description, null);
    }

    PlanPreview named(String jobName) {
      return new PlanPreview(plan, change, description, jobName);
    }
  }

  /**
   * A dry run of {@link #apply}: the execution plan of {@code specText} (at the job's current
   * parallelism if it exists and was rescaled) and whether applying it would create the job, change
   * nothing, or update it. Nothing is stored.
   *
   * @throws InvalidSpecException with every error of the spec
   */
  public PlanPreview plan(String project, String specText) {
    projects.checkExists(project);
    JobSpec probe = JobSpecs.parse(specText == null ? "" : specText);
    JobSpec spec = parse(probe.name(), specText);
    quotas.spec(spec);
    Optional<JobRecord> current = ctx.jobs.get(project, spec.name());
    String internal = JobNames.internal(project, spec.name());
    if (current.isEmpty()) {
      return new PlanPreview(ctx.plan(spec, null, project, internal), ApplyOutcome.CREATED,
          "job '" + spec.name() + "' does not exist; applying creates and starts it").named(spec.name());
    }
    JobRecord old = current.get();
    if (old.fingerprint().equals(SpecFingerprint.of(spec))) {
      return new PlanPreview(ctx.plan(spec, old), ApplyOutcome.UNCHANGED,
          "the spec is already applied (generation " + old.generation() + "); applying changes nothing")
          .named(spec.name());
    }
    ManagedJob job = jobs.get(internal);
    Integer parallelism = job == null ? null : keptParallelism(old, job, spec);
    Map<String, Integer> stages = job == null ? Map.of() : keptStages(old, () -> job.spec(old), spec);
    boolean running = job != null && job.state() == ObservedState.RUNNING;
    return new PlanPreview(ctx.plan(spec, parallelism, stages, project, internal), ApplyOutcome.UPDATED,
        running ? "the job is running: applying rolls the change out by savepoint and redeploy"
            : "applying stores the spec; the job runs it when it next starts").named(spec.name());
  }

  /** The job {@code name}: spec, desired and observed state, parallelism, last checkpoint, failure. */
  public JobView get(String project, String name) {
    JobRecord record = record(project, name);
    return views.of(record, jobs.get(record.internalName()));
  }

  /** A page of the project's jobs, in name order; {@code pageToken} null for the first page. */
  public JobPage list(String project, String pageToken, int limit) {
    projects.checkExists(project);
    JobStore.Listing listing = ctx.jobs.list(project, pageToken, limit);
    List<JobView> page = new ArrayList<>();
    for (JobRecord r : listing.records()) {
      page.add(views.of(r, jobs.get(r.internalName())));
    }
    return new JobPage(page, listing.nextPageToken());
  }

  /**
   * Stops the job. With {@code savepoint}, the job must be RUNNING; it stops at the savepoint, which
   * its next resume restores (the view's {@link JobView#restore()} names it); if the savepoint fails
   * the job keeps running ({@link OperationFailedException}). Without, any job stops (a stopped one
   * stays so), and resumes from its latest checkpoint.
   */
  public JobView stop(String project, String name, boolean savepoint) {
    if (!leadership.leading() && !savepoint) {
      JobRecord record = record(project, name);
      if (record.desired() == DesiredState.STOPPED) {
        return views.of(record, null);
      }
      JobRecord next = save(record.withDesired(DesiredState.STOPPED, RestorePolicy.LATEST, ctx.now()), null);
      ctx.events.append(project, name, JobEvent.Type.STATE_CHANGED, null, null, "stop requested (stored as the desired "
          + "state by a replica that does not lead; the leader carries it out)");
      return views.of(next, null);
    }
    return withJob(project, name, false, job -> views.of(actions.stop(job, record(project, name), savepoint), job));
  }

  /**
   * Starts a job that is not running (STOPPED, FAILED, FINISHED).
   *
   * @param restore {@link RestorePolicy#LATEST}, {@link RestorePolicy#NONE}, a path of one of the
   *     job's checkpoints or savepoints, or null for the record's restore policy (after a stop with
   *     a savepoint: that savepoint)
   * @throws StateConflictException if the job runs (use {@link #restart})
   * @throws InvalidRequestException naming {@code restore} if the path is not one of the job's, or its
   *     state cannot be restored into the job's spec (another state backend, an operator changed)
   */
  public JobView resume(String project, String name, RestorePolicy restore) {
    if (!leadership.leading()) {
      JobRecord record = record(project, name);
      JobSpec spec = JobSpecs.parse(record.spec());
      if (record.desired() == DesiredState.RUNNING) {
        throw new StateConflictException(null, "job '" + name + "' is to run already; restart it to start it again "
            + "from its latest checkpoint", false);
      }
      quotas.parallelism(project, name, QuotaChecks.parallelismOf(record), "/parallelism");
      RestorePolicy p = restore != null ? restore : record.restore();
      ctx.checkResumable(record.internalName(), p, spec.state().allowsNonRestoredState(),
          () -> ctx.plan(spec, record));
      JobRecord next = save(record.withDesired(DesiredState.RUNNING, p, ctx.now()), null);
      ctx.events.append(project, name, JobEvent.Type.STATE_CHANGED, null, null, "resume requested (stored as the "
          + "desired state by a replica that does not lead; the leader carries it out)");
      return views.of(next, null);
    }
    return withJob(project, name, false, job -> {
      JobRecord record = record(project, name);
      JobSpec spec = job.spec(record);
      if (!job.state().active()) {
        quotas.parallelism(project, name, QuotaChecks.parallelismOf(record), "/parallelism");
      }
      return views.of(actions.resume(job, record, spec, restore), job);
    });
  }

  /**
   * Sets the job's parallelism. A running job keeps its state (contract C7): a checkpoint, stop, and
   * start at {@code parallelism} from that checkpoint. A job at rest uses it on its next start. The
   * same parallelism again changes nothing.
   *
   * @throws InvalidRequestException naming {@code parallelism} if it lies outside [1,
   *     maxParallelism] or the spec's {@code parallelism.min}..{@code max}
   */
  public JobView rescale(String project, String name, int parallelism) {
    return rescale(project, name, parallelism, Map.of());
  }

  /**
   * Sets the parallelism of the job, of some of its stages, or both; a running job is rescaled as by
   * {@link #rescale(String, String, int)}. The same parallelism again changes nothing.
   *
   * @param parallelism null: the job's stays as it is, and so do the stages it does not name; else
   *     every stage not named in {@code stages} runs at it
   * @param stages the parallelism of single stages, each named by the id of any of its operators; a
   *     stage given the job's parallelism follows the job again
   * @throws InvalidRequestException naming {@code parallelism} or {@code stages/<id>} if a value lies
   *     outside [1, maxParallelism] or the spec's bounds, an id names no operator of the job, or its
   *     stage cannot change (a window without keys runs at 1)
   */
  public JobView rescale(String project, String name, Integer parallelism, Map<String, Integer> stages) {
    if (parallelism == null && stages.isEmpty()) {
      throw new InvalidRequestException("parallelism", "give the job's parallelism, the stages' or both");
    }
    if (!leadership.leading()) {
      return rescaleAsFollower(project, name, parallelism, stages);
    }
    return withJob(project, name, false, job -> {
      JobRecord record = record(project, name);
      JobSpec spec = job.spec(record);
      Rescaled next = rescaled(record, spec, parallelism, stages);
      if (next == null) {
        return views.of(record, job);
      }
      if (record.desired() == DesiredState.RUNNING) {
        quotas.parallelism(project, name, widest(next.base(), next.stages()), "/parallelism");
        fitsThePool(spec, record, next);
      }
      return views.of(actions.rescale(job, record, spec, record.withParallelism(next.job(), next.stages(), ctx.now())),
          job);
    });
  }

  /**
   * {@link #rescale} on a replica that does not lead (while no replica leads, during a takeover): the
   * new parallelism is checked as usual and written to the record as the desired state; the leader's
   * reconcile loop rolls it out.
   */
  private JobView rescaleAsFollower(String project, String name, Integer parallelism, Map<String, Integer> stages) {
    JobRecord record = record(project, name);
    Rescaled next = rescaled(record, JobSpecs.parse(record.spec()), parallelism, stages);
    if (next == null) {
      return views.of(record, null);
    }
    if (record.desired() == DesiredState.RUNNING) {
      quotas.parallelism(project, name, widest(next.base(), next.stages()), "/parallelism");
    }
    JobRecord saved = save(record.withParallelism(next.job(), next.stages(), ctx.now()), null);
    ctx.events.append(project, name, JobEvent.Type.STATE_CHANGED, null, null, "rescale to parallelism "
        + JobActions.describeParallelism(saved, JobSpecs.parse(saved.spec())) + " requested (stored as the desired "
        + "state by a replica that does not lead; the leader carries it out)");
    return views.of(saved, null);
  }

  /**
   * A rescale's new parallelism of the job and of its stages.
   *
   * @param base the job's parallelism after it (the stages' that are not named)
   */
  private record Rescaled(Integer job, Map<String, Integer> stages, int base) {}

  /**
   * Refuses a rescale whose tasks would not fit in the worker pool's slots, when the pool knows how
   * many it will ever have (local worker processes): the running job goes on as it is, rather than
   * being stopped for an attempt that cannot start.
   *
   * @throws InvalidRequestException naming {@code parallelism}
   */
  private void fitsThePool(JobSpec spec, JobRecord record, Rescaled next) {
    java.util.OptionalInt limit = ctx.storage.pool().slotLimit();
    if (limit.isEmpty()) {
      return;
    }
    io.tributary.plan.ExecutionPlan plan = ctx.plan(spec, next.job(), next.stages(), record.project(),
        record.internalName());
    int needed = io.tributary.scheduler.placement.Placement.slotsNeeded(plan);
    if (needed > limit.getAsInt()) {
      throw new InvalidRequestException("parallelism", "the job would run " + needed + " tasks, but the worker pool"
          + " has " + limit.getAsInt() + " slots in all (one task each): give the pool more workers or slots, or"
          + " the job a lower parallelism");
    }
  }

  /** What a rescale to {@code parallelism} and {@code stages} sets, checked; null if nothing changes. */
  private Rescaled rescaled(JobRecord record, JobSpec spec, Integer parallelism, Map<String, Integer> stages) {
    String project = record.project();
    int current = record.parallelism() != null ? record.parallelism() : spec.parallelism().initial();
    Integer nextJob = record.parallelism();
    Map<String, Integer> nextStages = new java.util.TreeMap<>(record.stageParallelism());
    if (parallelism != null) {
      checkParallelism(spec, "parallelism", parallelism);
      nextJob = parallelism;
      nextStages.clear();
    }
    int base = nextJob != null ? nextJob : spec.parallelism().initial();
    io.tributary.plan.ExecutionPlan plan = ctx.plan(spec, record);
    for (Map.Entry<String, Integer> e : stages.entrySet()) {
      String field = "stages/" + e.getKey();
      io.tributary.plan.StagePlan stage = plan.stageOf(e.getKey()).orElseThrow(() -> new InvalidRequestException(
          field, "the job has no operator '" + e.getKey() + "'; its stages begin with "
              + plan.stages().stream().map(io.tributary.scheduler.planner.Planner::head)
                  .collect(java.util.stream.Collectors.joining(", "))));
      checkParallelism(spec, field, e.getValue());
      String head = io.tributary.scheduler.planner.Planner.head(stage);
      Map<String, Integer> probe = new java.util.TreeMap<>(nextStages);
      probe.put(head, e.getValue());
      // the named operator's stage in the plan with that parallelism: a global window chained into its
      // input's stage at 1 stays at 1 when its input's stage does not
      int planned = ctx.plan(spec, nextJob, probe, project, record.internalName()).stageOf(e.getKey())
          .orElseThrow().parallelism();
      if (planned != e.getValue()) {
        throw new InvalidRequestException(field, "'" + e.getKey() + "' always runs at parallelism " + planned
            + ": it is, or follows, a window, aggregate or top-N without keys");
      }
      if (e.getValue() == base) {
        nextStages.remove(head);
      } else {
        nextStages.put(head, e.getValue());
      }
    }
    if (base == current && nextStages.equals(record.stageParallelism())) {
      return null;
    }
    return new Rescaled(nextJob, nextStages, base);
  }

  /** Ends the job's run without a savepoint (if it runs) and starts it from its latest checkpoint. */
  public JobView restart(String project, String name) {
    return withJob(project, name, false, job -> {
      JobRecord record = record(project, name);
      return views.of(actions.restart(job, record, job.spec(record)), job);
    });
  }

  /**
   * Takes a savepoint of a RUNNING job, which keeps running.
   *
   * @return the savepoint; its path restores it
   */
  public CheckpointRef triggerSavepoint(String project, String name) {
    return withJob(project, name, false, job -> {
      record(project, name);
      return actions.savepoint(job);
    });
  }

  /**
   * Deletes the job and its checkpoints; its savepoints stay (see {@link #delete(String, String,
   * Long, boolean)}).
   *
   * @param ifMatch null, or the version the caller read
   */
  public void delete(String project, String name, Long ifMatch) {
    delete(project, name, ifMatch, false);
  }

  /**
   * Deletes the job: ends its run, removes its record, status, events and checkpoints (their
   * entries, objects and state files); its savepoints stay, listed for a job created again under
   * the name, unless {@code deleteSavepoints}.
   *
   * @param ifMatch null, or the version the caller read
   */
  public void delete(String project, String name, Long ifMatch, boolean deleteSavepoints) {
    withJob(project, name, false, job -> {
      Optional<JobRecord> current = ctx.jobs.get(project, name);
      JobStore.checkIfMatch("job '" + name + "'", ifMatch, current);
      JobRecord record = current.orElseThrow(() -> NotFoundException.job(project, name));
      actions.delete(job);
      forget(job, "job '" + name + "' was deleted");
      ctx.jobs.delete(project, name, record.version());
      ctx.statuses.delete(project, name);
      ctx.events.deleteAll(project, name);
      int objects = ctx.checkpoints(job.internalName).deleteJobData(deleteSavepoints);
      System.getLogger(JobManager.class.getName()).log(System.Logger.Level.INFO, "job {0} of project {1} deleted "
          + "with {2} stored objects{3}", name, project, objects, deleteSavepoints ? ", savepoints included" : "");
      return null;
    });
  }

  /** The job's lifecycle events, oldest first (the last {@value EventLog#RETAINED}). */
  public List<JobEvent> events(String project, String name) {
    record(project, name);
    return ctx.events.list(project, name);
  }

  /** The job's retained checkpoints, oldest first. */
  public List<CheckpointRef> checkpoints(String project, String name) {
    CheckpointStore store = ctx.checkpoints(record(project, name).internalName());
    return store.checkpoints().stream().map(r -> JobViews.ref(store, r)).toList();
  }

  /** The job's savepoints (also those of a deleted job of the same name), oldest first. */
  public List<CheckpointRef> savepoints(String project, String name) {
    CheckpointStore store = ctx.checkpoints(record(project, name).internalName());
    return store.savepoints().stream().map(r -> JobViews.ref(store, r)).toList();
  }

  /**
   * Deletes savepoint {@code id} of the job: its entry and its directory. A savepoint shares no
   * file with checkpoints (a run restored from it copies what it reads back under the job's own
   * names, by its first checkpoint at the latest), so nothing else is affected.
   *
   * @throws NotFoundException if the job has no savepoint {@code id}
   * @throws StateConflictException if the job still needs it: it is what the job restores on its
   *     next start (at rest: its restore policy names it, or it is the latest checkpoint and the
   *     policy is latest) or on a restart of its run (which has not completed a checkpoint since it
   *     started from the savepoint, or whose latest checkpoint is the savepoint); or an older
   *     version took it, and its state files are shared with the job's checkpoints
   */
  public void deleteSavepoint(String project, String name, long id) {
    withJob(project, name, false, job -> {
      JobRecord record = record(project, name);
      CheckpointStore store = ctx.checkpoints(job.internalName);
      CheckpointStore.Retained sp = store.savepoints().stream().filter(r -> r.id() == id).findFirst()
          .orElseThrow(() -> new NotFoundException("job '" + name + "' has no savepoint " + id));
      ObservedState s = job.state();
      RestorePolicy next = s.active() ? job.recovery() : record.restore();
      boolean named = next.mode() == RestorePolicy.Mode.PATH
          && store.resolve(next.path()).equals(store.resolve(sp.path()));
      boolean latest = next.mode() == RestorePolicy.Mode.LATEST
          && store.latest().map(p -> p.id() == id).orElse(false);
      if (named || latest) {
        throw new StateConflictException(s, "job '" + name + "' would restore savepoint " + id + (s.active()
            ? " if its run restarted now" + (latest ? "" : " (it started from it and has completed no checkpoint yet)")
                + "; retry once it completed a checkpoint"
            : " when it is resumed (" + (named ? "its restore policy names it" : "it is its latest checkpoint")
                + "); resume it from another checkpoint or without state first"), s.active());
      }
      if (!CheckpointStore.isSelfContained(store.load(sp.path()), sp.path())) {
        throw new StateConflictException(s, "savepoint " + id + " of job '" + name + "' was taken by an older "
            + "version: its state files are shared with the job's checkpoints, so it is kept until the job is "
            + "deleted", false);
      }
      store.deleteSavepoint(id);
      return null;
    });
  }

  /**
   * The job's metrics, sampled every second: rates over the last few seconds, and one entry per
   * operator of its plan (the running one; for a job at rest, its last run's in this process, else
   * its spec's).
   */
  public JobMetricsView metrics(String project, String name) {
    JobRecord record = record(project, name);
    ManagedJob job = jobs.get(record.internalName());
    if (job == null) {
      return new JobMetricsTracker().view(planOf(record, null), 0, ctx.now());
    }
    return job.metrics.view(planOf(record, job), job.restarts(), ctx.now());
  }

  /** The plan of the record's spec, or null if it cannot be planned. */
  private ExecutionPlan planOf(JobRecord record, ManagedJob job) {
    try {
      JobSpec spec = job != null ? job.spec(record) : JobSpecs.parse(record.spec());
      return ctx.plan(spec, record);
    } catch (RuntimeException e) {
      return null; // the stored spec no longer plans: no operators to show
    }
  }

  /**
   * The last records the job's operator {@code operatorId} produced (a sink: wrote), oldest first:
   * a sample of at most a few dozen records a second per subtask, the last
   * {@value SampleBuffer#CAPACITY} per subtask. For null, those of every sink. A job at rest shows
   * what its last run in this process produced; empty if it did not run in this process.
   *
   * @throws InvalidRequestException naming {@code operator} if the job has no such operator
   */
  public List<OutputRecord> output(String project, String name, String operatorId) {
    ManagedJob job = managed(project, name);
    JobOutput current = OutputFeeds.current(job);
    checkOperator(current, operatorId);
    return current == null ? List.of() : OutputFeeds.read(current.taps(operatorId), new IdentityHashMap<>());
  }

  /**
   * Subscribes {@code listener} to the records the job's operator {@code operatorId} produces (null:
   * its sinks), as {@link #output} samples them: first what is kept now, then every
   * {@value #OUTPUT_POLL_MILLIS} ms what is new, across restarts of the job, until the subscription
   * is closed, the job deleted or the manager closed ({@link OutputListener#ended}).
   *
   * @throws InvalidRequestException naming {@code operator} if the job's current plan has no such
   *     operator
   */
  public OutputSubscription subscribeOutput(String project, String name, String operatorId,
      OutputListener listener) {
    Objects.requireNonNull(listener, "listener");
    ManagedJob job = outputOf(project, name, operatorId);
    checkOpen();
    return outputs.subscribe(job, operatorId, listener);
  }

  /**
   * Checks, before a stream of the job's output opens, what {@link #subscribeOutput} would refuse:
   * the job exists and its current plan has the operator {@code operatorId} (null: its sinks).
   *
   * @throws NotFoundException if there is no such job
   * @throws InvalidRequestException naming {@code operator} if the job's current plan has no such operator
   */
  public void checkOutput(String project, String name, String operatorId) {
    outputOf(project, name, operatorId);
  }

  private ManagedJob outputOf(String project, String name, String operatorId) {
    ManagedJob job = managed(project, name);
    checkOperator(OutputFeeds.current(job), operatorId);
    return job;
  }

  /** The metrics of this control plane and its jobs in the Prometheus text format (version 0.0.4). */
  public String prometheus() {
    return metrics.scrape();
  }

  /** The content type of {@link #prometheus()}. */
  public static String prometheusContentType() {
    return ControlMetrics.CONTENT_TYPE;
  }

  /** The registry behind {@link #prometheus()}, for the HTTP server to add its own meters to. */
  public MeterRegistry meterRegistry() {
    return metrics.registry();
  }

  private ManagedJob managed(String project, String name) {
    JobRecord record = record(project, name);
    ManagedJob job = jobs.get(record.internalName());
    if (job == null) {
      throw new OperationFailedException("job '" + name + "' exists but is not managed by this process",
          Failure.Domain.INTERNAL, false, null);
    }
    return job;
  }

  private static void checkOperator(JobOutput output, String operatorId) {
    if (operatorId == null || output == null) {
      return;
    }
    List<String> ids = output.operatorIds();
    if (!ids.contains(operatorId)) {
      throw new InvalidRequestException("operator", "job has no operator '" + operatorId + "'; its operators: "
          + ids);
    }
  }

  /**
   * Ends every run (without savepoints, leaving every job's stored state as it is: a new manager
   * resumes them) and closes the services.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    sourceWatchThread.shutdownNow();
    reconcileThread.shutdownNow();
    try {
      reconcileThread.awaitTermination(ctx.actionTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    metricsThread.shutdownNow();
    outputs.closeAll("the control plane is shutting down");
    metrics.close();
    try {
      for (ManagedJob job : jobs.values()) {
        job.shutdown(ctx.actionTimeout());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      LeaderLease l = lease;
      if (l != null) {
        l.close();
      }
      ctx.storage.close();
    }
  }

  // ---- helpers

  /** An action on one job, run under its actions lock. */
  private interface JobAction<T> {
    T run(ManagedJob job) throws InterruptedException;
  }

  private <T> T withJob(String project, String name, boolean create, JobAction<T> action) {
    String key = JobNames.internal(project, name);
    while (true) {
      checkOpen();
      checkLeading();
      ManagedJob job = create ? jobs.computeIfAbsent(key, k -> new ManagedJob(project, name, ctx)) : jobs.get(key);
      if (job == null) {
        record(project, name); // throws NotFound if the job does not exist
        throw new OperationFailedException("job '" + name + "' exists but is not managed by this process",
            Failure.Domain.INTERNAL, false, null);
      }
      try {
        if (!job.lockActions(ctx.actionTimeout())) {
          throw new StateConflictException(job.state(), "another action on job '" + name + "' is in progress; "
              + "retry when it is done", true);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted(e);
      }
      try {
        if (job.retired()) {
          continue;
        }
        checkOpen();
        if (!job.takenOver()) {
          // stored, but not known here yet (this replica was just elected, or another process wrote it):
          // take it over as stored before acting, as the reconcile loop would
          Optional<JobRecord> stored = ctx.jobs.get(project, name);
          if (stored.isPresent()) {
            reconciler.takeOver(job, stored.get());
          } else {
            job.markTakenOver();
          }
        }
        return action.run(job);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        forgetIfNotCreated(key, job, create);
        throw interrupted(e);
      } catch (RuntimeException e) {
        forgetIfNotCreated(key, job, create);
        throw e;
      } finally {
        job.unlockActions();
      }
    }
  }

  /** After an apply that failed: the job object stands for nothing if no record was written. */
  private void forgetIfNotCreated(String key, ManagedJob job, boolean create) {
    if (!create || job.retired() || job.state() != ObservedState.CREATED) {
      return;
    }
    try {
      if (ctx.jobs.get(job.project, job.name).isPresent()) {
        return;
      }
    } catch (RuntimeException e) {
      // the store is failing or closed: forget the object anyway, a restart reads the records again
    }
    job.retire();
    jobs.remove(key, job);
  }

  private static OperationFailedException interrupted(InterruptedException e) {
    return new OperationFailedException("interrupted", Failure.Domain.INTERNAL, true, e);
  }

  private void checkLeading() {
    if (!leadership.leading()) {
      throw new OperationFailedException("this control-plane replica does not lead now, and only the leader acts "
          + "on jobs; retry in a few seconds (the request goes to the leader once one is elected)",
          Failure.Domain.INTERNAL, true, null);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new OperationFailedException("the control plane is shutting down", Failure.Domain.INTERNAL, true, null);
    }
  }

  private JobRecord record(String project, String name) {
    JobNames.checkJob(name);
    projects.checkExists(project);
    return ctx.jobs.get(project, name).orElseThrow(() -> NotFoundException.job(project, name));
  }

  private JobRecord create(JobRecord record, Long ifMatch) {
    try {
      return ctx.jobs.put(record, 0);
    } catch (ConflictException e) {
      throw conflict(record, ifMatch, e);
    }
  }

  private JobRecord save(JobRecord record, Long ifMatch) {
    try {
      return ctx.jobs.put(record, record.version());
    } catch (ConflictException e) {
      throw conflict(record, ifMatch, e);
    }
  }

  private static RuntimeException conflict(JobRecord record, Long ifMatch, ConflictException e) {
    if (ifMatch != null) {
      return new PreconditionFailedException("job '" + record.name() + "'", ifMatch, Math.max(0, e.actualVersion()));
    }
    return new StateConflictException(null, "job '" + record.name() + "' was changed concurrently; retry", true);
  }

  /** The spec in {@code text}, which must name job {@code name}. */
  private static JobSpec parse(String name, String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidSpecException(List.of(new SpecError("", "the job spec is empty")));
    }
    if (text.getBytes(StandardCharsets.UTF_8).length > MAX_SPEC_BYTES) {
      throw new InvalidSpecException(List.of(new SpecError("", "the job spec is larger than " + MAX_SPEC_BYTES
          + " bytes")));
    }
    JobSpec spec = JobSpecs.parse(text);
    if (!name.equals(spec.name())) {
      throw new InvalidSpecException(List.of(new SpecError("/name", "must be '" + name + "', the job's name in the "
          + "request; a job cannot be renamed (create a job of the new name and delete this one)")));
    }
    return spec;
  }

  private static void checkParallelism(JobSpec spec, String field, int n) {
    ParallelismSpec p = spec.parallelism();
    int max = spec.effectiveMaxParallelism();
    if (n < 1 || n > max) {
      throw new InvalidRequestException(field, "must be between 1 and the job's maxParallelism (" + max
          + "), got " + n);
    }
    if (n < p.min() || n > p.max()) {
      throw new InvalidRequestException(field, "must be within the spec's parallelism bounds, min " + p.min()
          + " and max " + p.max() + ", got " + n + "; change the spec's parallelism to go beyond them");
    }
  }

  /**
   * The stages' own parallelism a changed spec keeps: while the spec's parallelism is as it was, each
   * that it still allows (a stage the new spec no longer has is ignored by the planner).
   */
  private static Map<String, Integer> keptStages(JobRecord old, java.util.function.Supplier<JobSpec> oldSpec,
      JobSpec after) {
    if (old.stageParallelism().isEmpty() || !sameParallelism(oldSpec, after)) {
      return Map.of();
    }
    Map<String, Integer> kept = new java.util.TreeMap<>();
    old.stageParallelism().forEach((stage, n) -> {
      if (allows(after, n)) {
        kept.put(stage, n);
      }
    });
    return kept;
  }

  /** Whether the old spec (if it still parses) has the same parallelism block as {@code after}. */
  private static boolean sameParallelism(java.util.function.Supplier<JobSpec> oldSpec, JobSpec after) {
    try {
      return oldSpec.get().parallelism().equals(after.parallelism());
    } catch (InvalidSpecException e) {
      return false; // the stored spec no longer parses: the new one decides
    }
  }

  /** Whether {@code spec} allows parallelism {@code n}: within its bounds and its key groups. */
  private static boolean allows(JobSpec spec, int n) {
    ParallelismSpec p = spec.parallelism();
    return n >= p.min() && n <= p.max() && n <= spec.effectiveMaxParallelism();
  }

  /** The parallelism a job counts for in the quota: its widest stage's. */
  static int widest(int parallelism, Map<String, Integer> stages) {
    return Math.max(parallelism, stages.values().stream().mapToInt(Integer::intValue).max().orElse(0));
  }

  /** The rescaled parallelism a changed spec keeps: while the spec's parallelism is as it was, and allows it. */
  private static Integer keptParallelism(JobRecord old, ManagedJob job, JobSpec after) {
    return keptParallelism(old, () -> job.spec(old), after);
  }

  private static Integer keptParallelism(JobRecord old, java.util.function.Supplier<JobSpec> oldSpec, JobSpec after) {
    Integer rescaled = old.parallelism();
    return rescaled != null && sameParallelism(oldSpec, after) && allows(after, rescaled) ? rescaled : null;
  }
}
