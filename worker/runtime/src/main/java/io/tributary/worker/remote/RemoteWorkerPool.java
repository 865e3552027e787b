package io.tributary.worker.remote;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.checkpoint.TaskState;
import io.tributary.plan.OperatorPlan;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.protocol.AttemptDeployment;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.ControlMessage;
import io.tributary.protocol.Failure;
import io.tributary.protocol.RunningAttempt;
import io.tributary.protocol.TaskDeployment;
import io.tributary.protocol.WorkerException;
import io.tributary.protocol.WorkerPool;
import io.tributary.protocol.WorkerReport;
import io.tributary.protocol.WorkerReports;
import io.tributary.protocol.WorkerSlots;
import io.tributary.worker.net.DataTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Runs attempts on worker processes that register over the control protocol: the control plane's
 * end of it. Workers connect to its port, prove they know the cluster secret, announce their slots
 * and data address, and heartbeat; a worker that misses heartbeats for the heartbeat timeout, or
 * whose stream ends, is lost: every task it ran fails (EXTERNAL, retryable, naming the worker and
 * why), so the job master restarts the attempt on the remaining capacity.
 *
 * <p>An attempt's deployment reaches each of its workers with the attempt's data token and every
 * worker's data address; sink recoveries run first, on one worker, before any worker deploys.
 * Commits of a completed checkpoint go to one live worker of the attempt per sink (commits are
 * idempotent and any worker can make them). Reports of an attempt that is not deployed on the
 * reporting worker — an older attempt, a worker that was declared lost and spoke again — are
 * fenced: dropped, counted, and the worker told to release that attempt.
 *
 * <p><b>Attempts that outlive their control plane.</b> A worker whose control stream ended keeps
 * its attempts running for a while and, registering again, says which it runs. An attempt this pool
 * never deployed, of a job it runs no other attempt of, is kept as an <em>orphan</em>: its slots stay
 * taken, the ends and final states its workers tell again are kept, anything else it reports is
 * dropped. A control plane that takes the job over finds it with {@link #running} once every worker
 * of it is back, and follows it with {@link #adopt}; a new attempt of the job ({@link #acquire}), or
 * nobody taking it over within the orphan grace, makes its workers release it. A worker may never
 * come back to an attempt this pool deployed: once lost, it is fenced from it for good.
 *
 * <p><b>Whose workers.</b> By default any attempt may use any registered worker ({@link
 * Capacity#SHARED}: external workers, local worker processes). A {@link Capacity} given to {@link
 * #useCapacity} makes workers for attempts instead and says which workers serve which attempt (the
 * Kubernetes pool's pods per attempt): {@link #acquire} tells it what an attempt needs and waits for
 * free slots on the workers that serve it; {@link #release} and {@link #detach} tell it the attempt
 * is over or left running.
 */
public final class RemoteWorkerPool implements WorkerPool {
  private static final System.Logger LOG = System.getLogger(RemoteWorkerPool.class.getName());

  /**
   * @param bindHost the address the control port listens on ({@code 127.0.0.1} unless told otherwise)
   * @param port the control port, 0 for any free one
   * @param clusterSecret what workers must prove they know
   * @param storage the object store URL workers write state and checkpoint objects to
   * @param heartbeatInterval how often workers heartbeat
   * @param heartbeatTimeout a worker silent this long is lost
   * @param capacityTimeout how long {@link #acquire} waits for enough free slots
   * @param requestTimeout how long a request to a worker (deploy, commit) may take
   * @param access what the workers' connectors may reach (sent to each worker as it registers)
   * @param metricsInterval how often workers report their tasks' metrics
   * @param accepting whether workers may join now (see {@link #withAccepting})
   * @param reattach whether attempts outlive this pool (see {@link #withoutReattach}): a worker's
   *     running attempts that an earlier control plane deployed are kept for {@link #running}, and
   *     {@link #detach} leaves an attempt running
   * @param orphanGrace how long an attempt that workers still run, and nobody took over, is kept
   *     before its workers are told to release it
   */
  public record Settings(String bindHost, int port, String clusterSecret, String storage, Duration heartbeatInterval,
      Duration heartbeatTimeout, Duration capacityTimeout, Duration requestTimeout, ConnectorPolicy access,
      Duration metricsInterval, java.util.function.BooleanSupplier accepting, boolean reattach, Duration orphanGrace) {
    public static Settings of(String clusterSecret, String storage) {
      return new Settings("127.0.0.1", 0, clusterSecret, storage, Duration.ofSeconds(1), Duration.ofSeconds(5),
          Duration.ofSeconds(60), Duration.ofMinutes(2), ConnectorPolicy.unrestricted(), Duration.ofSeconds(1),
          () -> true, true, Duration.ofSeconds(60));
    }

    /**
     * Attempts do not outlive the pool: for workers that end with their control plane (local worker
     * processes), {@link #detach} releases, and attempts workers say they still run are released.
     */
    public Settings withoutReattach() {
      return new Settings(bindHost, port, clusterSecret, storage, heartbeatInterval, heartbeatTimeout, capacityTimeout,
          requestTimeout, access, metricsInterval, accepting, false, orphanGrace);
    }

    public Settings withOrphanGrace(Duration g) {
      return new Settings(bindHost, port, clusterSecret, storage, heartbeatInterval, heartbeatTimeout, capacityTimeout,
          requestTimeout, access, metricsInterval, accepting, reattach, g);
    }

    /**
     * Workers join only while {@code a} says so (a control-plane replica that does not lead turns
     * them away, and lets go of those it has once it stops leading, so that they find the leader).
     */
    public Settings withAccepting(java.util.function.BooleanSupplier a) {
      return new Settings(bindHost, port, clusterSecret, storage, heartbeatInterval, heartbeatTimeout, capacityTimeout,
          requestTimeout, access, metricsInterval, a, reattach, orphanGrace);
    }

    public Settings withAccess(ConnectorPolicy a) {
      return new Settings(bindHost, port, clusterSecret, storage, heartbeatInterval, heartbeatTimeout, capacityTimeout,
          requestTimeout, a, metricsInterval, accepting, reattach, orphanGrace);
    }

    public Settings withMetricsInterval(Duration m) {
      return new Settings(bindHost, port, clusterSecret, storage, heartbeatInterval, heartbeatTimeout, capacityTimeout,
          requestTimeout, access, m, accepting, reattach, orphanGrace);
    }

    public Settings withPort(String host, int p) {
      return new Settings(host, p, clusterSecret, storage, heartbeatInterval, heartbeatTimeout, capacityTimeout,
          requestTimeout, access, metricsInterval, accepting, reattach, orphanGrace);
    }

    public Settings withHeartbeatTimeout(Duration t) {
      return new Settings(bindHost, port, clusterSecret, storage, heartbeatInterval, t, capacityTimeout,
          requestTimeout, access, metricsInterval, accepting, reattach, orphanGrace);
    }

    public Settings withCapacityTimeout(Duration t) {
      return new Settings(bindHost, port, clusterSecret, storage, heartbeatInterval, heartbeatTimeout, t,
          requestTimeout, access, metricsInterval, accepting, reattach, orphanGrace);
    }
  }

  /** A worker of the pool as others see it. */
  public record WorkerInfo(String id, long pid, int slots, int freeSlots, String dataAddress) {}

  /** A worker joined ({@code lost} false) or left the pool (then {@code why}). */
  public record WorkerEvent(String worker, long pid, boolean lost, String why) {}

  /**
   * Why a replica that does not lead turns a worker away; the worker tries again (the next address
   * it was given), as after a lost connection.
   */
  public static final String NOT_LEADING = "this control-plane replica does not lead; "
      + "register with the leader (trying again)";

  private final Settings settings;
  private final DataTokens tokens;
  private final Server server;
  private final ScheduledExecutorService monitor;
  /** Registered workers by id; guarded by this (with {@link #routes} for slot accounting). */
  private final Map<String, WorkerSession> workers = new LinkedHashMap<>();
  private final Map<AttemptId, Route> routes = new ConcurrentHashMap<>();
  private final Set<WorkerSession> sessions = ConcurrentHashMap.newKeySet();
  private final List<Consumer<WorkerEvent>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicLong fencedReports = new AtomicLong();
  /** Attempts this pool {@linkplain #detach let go of}: their workers' reports are ignored, not fenced. */
  private final Set<AttemptId> letGo = ConcurrentHashMap.newKeySet();
  private volatile Capacity capacity = Capacity.SHARED;
  /** The workers this pool's owner starts itself, all it will have; null when others may add workers. */
  private volatile OwnWorkers own;

  /**
   * The workers of a pool whose owner starts them all itself ({@code --workers local:N}): {@code
   * count} of {@code slotsEach} slots, and what to tell a user whose attempt needs more ({@code
   * remedy}, given the slots it needs).
   */
  private record OwnWorkers(int count, int slotsEach, java.util.function.IntFunction<String> remedy) {}

  public RemoteWorkerPool(Settings settings) {
    this.settings = settings;
    this.tokens = new DataTokens(settings.clusterSecret());
    ServerServiceDefinition service = ServerServiceDefinition.builder(ControlRpc.SERVICE)
        .addMethod(ControlRpc.CONNECT, ServerCalls.asyncBidiStreamingCall(this::connected))
        .build();
    try {
      this.server = NettyServerBuilder.forAddress(new InetSocketAddress(settings.bindHost(), settings.port()))
          .addService(service)
          .maxInboundMessageSize(ControlRpc.MAX_MESSAGE_BYTES)
          .permitKeepAliveTime(1, TimeUnit.SECONDS)
          .permitKeepAliveWithoutCalls(true)
          .build().start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen for workers on " + settings.bindHost() + ":" + settings.port()
          + ": " + e.getMessage(), e);
    }
    this.monitor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "worker-heartbeats");
      t.setDaemon(true);
      return t;
    });
    long every = Math.max(50, settings.heartbeatTimeout().toMillis() / 10);
    monitor.scheduleWithFixedDelay(this::checkHeartbeats, every, every, TimeUnit.MILLISECONDS);
  }

  /** The control port workers connect to. */
  public int port() {
    return server.getPort();
  }

  /**
   * Takes attempts' workers from {@code c} from now on instead of {@link Capacity#SHARED} (the Kubernetes
   * pool's pods per attempt). Once, before the first {@link #acquire}.
   *
   * @throws IllegalStateException if a capacity was set before
   */
  public synchronized void useCapacity(Capacity c) {
    if (capacity != Capacity.SHARED) {
      throw new IllegalStateException("the pool's capacity is set already: " + capacity);
    }
    capacity = java.util.Objects.requireNonNull(c, "capacity");
  }

  /**
   * Says that this pool's workers are {@code count} workers of {@code slotsEach} slots that its owner
   * starts (and replaces) itself, so that an attempt needing more slots than they have in all fails at
   * once, as a user error that says what to change ({@code remedy}, given the slots the attempt needs),
   * instead of waiting for slots that never come. Once, before the first {@link #acquire}.
   */
  public void ownWorkers(int count, int slotsEach, java.util.function.IntFunction<String> remedy) {
    if (count < 1 || slotsEach < 1) {
      throw new IllegalArgumentException("own workers need a count and slots of at least 1, got " + count + " of "
          + slotsEach);
    }
    own = new OwnWorkers(count, slotsEach, java.util.Objects.requireNonNull(remedy, "remedy"));
  }

  /** {@inheritDoc} Here the slots of the workers its owner starts, when it said so with {@link #ownWorkers}. */
  @Override
  public java.util.OptionalInt slotLimit() {
    OwnWorkers o = own;
    return o == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(o.count() * o.slotsEach());
  }

  /** Where attempts' workers come from: {@link Capacity#SHARED} unless {@link #useCapacity} said otherwise. */
  public Capacity capacity() {
    return capacity;
  }

  /** Whether workers may join now: false while this control-plane replica does not lead. */
  public boolean accepting() {
    return settings.accepting().getAsBoolean();
  }

  /**
   * The attempts the pool has slots for: acquired, deployed, taken over, or kept as orphans that
   * workers still run for an earlier control plane (until they are released).
   */
  public Set<AttemptId> attempts() {
    return Set.copyOf(routes.keySet());
  }

  /** Tells {@code listener} of every worker that joins or leaves. */
  public void onWorkerEvent(Consumer<WorkerEvent> listener) {
    listeners.add(listener);
  }

  /** The registered workers. */
  public synchronized List<WorkerInfo> workers() {
    List<WorkerInfo> out = new ArrayList<>();
    for (WorkerSession s : workers.values()) {
      out.add(new WorkerInfo(s.worker(), s.pid(), s.slots(), freeSlots(s), s.dataAddress()));
    }
    return out;
  }

  /**
   * Messages fenced so far: reports of attempts not deployed on the reporting worker (any more), and
   * anything a worker said after it was declared lost.
   */
  public long fencedMessages() {
    return fencedReports.get();
  }

  // ---- the control streams

  private StreamObserver<Envelope> connected(StreamObserver<Envelope> toWorker) {
    WorkerSession session = new WorkerSession(toWorker);
    sessions.add(session);
    return new StreamObserver<>() {
      @Override
      public void onNext(Envelope e) {
        received(session, e);
      }

      @Override
      public void onError(Throwable t) {
        ended(session, "its control stream failed: " + t.getMessage());
      }

      @Override
      public void onCompleted() {
        ended(session, "it closed its control stream");
      }
    };
  }

  private void received(WorkerSession s, Envelope e) {
    if (s.state() == WorkerSession.State.LOST) {
      fenced(s, e);
      return;
    }
    s.heard();
    if (e instanceof Envelope.Hello h && s.state() == WorkerSession.State.CONNECTED) {
      s.challenge(h.worker(), h.pid());
    } else if (e instanceof Envelope.Register r) {
      register(s, r);
    } else if (e instanceof Envelope.Report r && s.state() == WorkerSession.State.REGISTERED) {
      route(s, r.report());
    } else if (e instanceof Envelope.Reply r) {
      s.replied(r);
    } else if (!(e instanceof Envelope.Heartbeat)) {
      s.close("unexpected " + e.getClass().getSimpleName() + " in state " + s.state());
    }
  }

  private void register(WorkerSession s, Envelope.Register r) {
    if (!s.proves(r, settings.clusterSecret())) {
      LOG.log(System.Logger.Level.WARNING, "worker {0} (pid {1}) refused: it does not know the cluster secret",
          r.worker(), r.pid());
      s.send(new Envelope.Refused("the cluster secret is wrong; set TRIBUTARY_CLUSTER_SECRET to the control "
          + "plane's"));
      s.close("refused");
      return;
    }
    if (!settings.accepting().getAsBoolean()) {
      LOG.log(System.Logger.Level.INFO, "worker {0} (pid {1}) turned away: this replica does not lead", r.worker(),
          r.pid());
      s.send(new Envelope.Refused(NOT_LEADING));
      s.close("refused");
      sessions.remove(s);
      return;
    }
    WorkerSession replaced;
    synchronized (this) {
      replaced = workers.put(r.worker(), s);
      s.registered(r, new Envelope.Registered(settings.storage(), settings.heartbeatInterval().toMillis(),
          settings.metricsInterval().toMillis(), Envelope.Access.of(settings.access())));
      notifyAll();
    }
    if (replaced != null && replaced != s) {
      lose(replaced, "it registered again on a new connection");
    }
    // its reports (on this stream) are handled only after this returns, so they find its claims
    List<AttemptId> refused = new ArrayList<>();
    synchronized (this) {
      for (RunningAttempt running : r.running()) {
        if (!claim(r.worker(), running)) {
          refused.add(running.attempt());
        }
      }
      notifyAll();
    }
    for (AttemptId a : refused) {
      s.tell(new ControlMessage.Release(a)); // it must not run that attempt any more
    }
    LOG.log(System.Logger.Level.INFO, "worker {0} (pid {1}) joined with {2} slots, data at {3}", r.worker(),
        r.pid(), r.slots(), r.dataAddress());
    listeners.forEach(l -> l.accept(new WorkerEvent(r.worker(), r.pid(), false, null)));
  }

  /**
   * A worker that registered says it still runs {@code running}: kept as an orphan if this pool
   * never deployed it and runs no other attempt of its job. Holding this.
   *
   * @return false if the worker must release it
   */
  private boolean claim(String worker, RunningAttempt running) {
    AttemptId id = running.attempt();
    Route known = routes.get(id);
    boolean otherAttempt = routes.values().stream().anyMatch(r -> r.id().job().equals(id.job()) && !r.id().equals(id));
    if (!settings.reattach() || (known != null && !known.orphan()) || otherAttempt
        || running.deployment().tasksOn(worker).isEmpty()) {
      LOG.log(System.Logger.Level.INFO, "worker {0} still runs attempt {1}; telling it to release it", worker, id);
      return false;
    }
    Route orphan = known;
    if (orphan == null) {
      orphan = Route.orphan(running.deployment());
      routes.put(id, orphan);
      LOG.log(System.Logger.Level.INFO, "worker {0} still runs attempt {1}, which an earlier control plane deployed; "
          + "kept for a take-over", worker, id);
    }
    orphan.claimedBy(worker, running.lastCheckpointId());
    return true;
  }

  private void ended(WorkerSession s, String why) {
    sessions.remove(s);
    lose(s, why);
    s.close(why);
  }

  private void checkHeartbeats() {
    long now = System.nanoTime();
    for (Route r : routes.values()) {
      if (r.orphan() && now - r.createdAtNanos > settings.orphanGrace().toNanos()) {
        LOG.log(System.Logger.Level.INFO, "attempt {0}: no control plane took it over within {1} ms; its workers "
            + "release it", r.id(), settings.orphanGrace().toMillis());
        release(r.id());
      }
    }
    long timeout = settings.heartbeatTimeout().toNanos();
    if (!settings.accepting().getAsBoolean()) {
      for (WorkerSession s : sessions) {
        if (s.state() == WorkerSession.State.REGISTERED) {
          lose(s, "this control-plane replica no longer leads");
          s.send(new Envelope.Refused(NOT_LEADING));
          s.close("no longer leading");
          sessions.remove(s);
        }
      }
    }
    for (WorkerSession s : sessions) {
      WorkerSession.State state = s.state();
      long silent = now - s.lastHeardNanos();
      if (state == WorkerSession.State.REGISTERED && silent > timeout) {
        lose(s, "no heartbeat for " + Duration.ofNanos(silent).toMillis() + " ms (timeout "
            + settings.heartbeatTimeout().toMillis() + " ms)");
      } else if ((state == WorkerSession.State.CONNECTED || state == WorkerSession.State.CHALLENGED)
          && now - s.connectedAtNanos > timeout * 2) {
        s.close("it did not register in time");
        sessions.remove(s);
      }
    }
  }

  /**
   * Takes {@code s}'s worker out of the pool: its requests in flight fail, and every task it ran of
   * a live attempt ends FAILED (so the job master restarts the attempt).
   */
  private void lose(WorkerSession s, String why) {
    String worker = s.worker();
    boolean wasMember;
    synchronized (this) {
      wasMember = worker != null && workers.get(worker) == s;
      if (wasMember) {
        workers.remove(worker);
      }
    }
    s.lost(why);
    if (!wasMember) {
      return;
    }
    LOG.log(System.Logger.Level.WARNING, "worker {0} (pid {1}) lost: {2}", worker, s.pid(), why);
    Failure failure = s.lostFailure(why);
    for (Route r : routes.values()) {
      r.workerLost(worker, failure);
    }
    listeners.forEach(l -> l.accept(new WorkerEvent(worker, s.pid(), true, why)));
  }

  /**
   * A worker that was lost spoke again: fence it, tell it to drop what it runs, end its stream. Unless
   * it was let go because this replica stopped leading: what it runs is then the next leader's to keep
   * or stop, so it is only told that this replica does not lead (a report already on its way when the
   * lead was lost made this replica release the attempt it had just left running).
   */
  private void fenced(WorkerSession s, Envelope e) {
    fencedReports.incrementAndGet();
    if (!settings.accepting().getAsBoolean()) {
      s.send(new Envelope.Refused(NOT_LEADING));
    } else {
      if (e instanceof Envelope.Report r && !letGo.contains(r.report().attempt())) {
        s.tell(new ControlMessage.Release(r.report().attempt()));
      }
      s.send(new Envelope.Refused("this worker was declared lost (" + s.worker() + "); drop every task and "
          + "register again"));
    }
    s.close("fenced");
    sessions.remove(s);
  }

  private void route(WorkerSession s, WorkerReport report) {
    Route r = routes.get(report.attempt());
    if (r == null && letGo.contains(report.attempt())) {
      return; // left running for the next control plane: not this one's to stop
    }
    if (r == null || !r.runsOn(s.worker())) {
      fencedReports.incrementAndGet();
      s.tell(new ControlMessage.Release(report.attempt())); // an attempt this worker must not run
      return;
    }
    r.deliver(report);
  }

  // ---- WorkerPool

  /**
   * {@inheritDoc}
   *
   * <p>Only workers the {@linkplain #useCapacity capacity} says {@linkplain Capacity#serves serve}
   * the attempt count; it is told of the {@linkplain Capacity#demand demand} first, so that it can
   * make the workers, and waits up to the capacity timeout for their slots.
   */
  @Override
  public List<WorkerSlots> acquire(AttemptId attempt, int slots) {
    return acquire(attempt, slots, why -> {});
  }

  @Override
  public List<WorkerSlots> acquire(AttemptId attempt, int slots, java.util.function.Consumer<String> waiting) {
    for (Route r : routes.values()) {
      if (r.orphan() && r.id().job().equals(attempt.job())) {
        release(r.id()); // the job starts anew: whatever of it still runs must stop
      }
    }
    Capacity c = capacity;
    c.demand(attempt, slots);
    long deadline = System.nanoTime() + settings.capacityTimeout().toNanos();
    List<WorkerSlots> out = new ArrayList<>();
    String wait;
    synchronized (this) {
      wait = totalFree(attempt) < slots ? waiting(attempt, slots) : null;
    }
    if (wait != null) {
      waiting.accept(wait); // not holding this: the listener may take its time
    }
    synchronized (this) {
      OwnWorkers o = own;
      int registered = serving(attempt).stream().mapToInt(WorkerSession::slots).sum();
      if (o != null && slots > Math.max(o.count() * o.slotsEach(), registered)) {
        throw new WorkerException(Failure.user("attempt " + attempt + " needs " + slots + " slots, but the pool's "
            + o.count() + " workers have " + o.count() * o.slotsEach() + " in all (" + o.slotsEach() + " each); "
            + o.remedy().apply(slots)), null);
      }
      while (totalFree(attempt) < slots) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new WorkerException(new Failure(Failure.Domain.EXTERNAL, true, shortage(attempt, slots)), null);
        }
        try {
          wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new WorkerException(new Failure(Failure.Domain.INTERNAL, true, "interrupted"), e);
        }
      }
      Map<String, Integer> reserved = reserve(attempt, slots);
      routes.put(attempt, new Route(attempt, reserved));
      reserved.forEach((w, n) -> out.add(new WorkerSlots(w, n)));
    }
    c.granted(attempt);
    return out;
  }

  /** {@code slots} slots for {@code attempt}, one at a time on the serving worker with the most free. Holding this. */
  private Map<String, Integer> reserve(AttemptId attempt, int slots) {
    Map<String, Integer> reserved = new LinkedHashMap<>();
    for (int i = 0; i < slots; i++) {
      WorkerSession most = null;
      for (WorkerSession w : serving(attempt)) {
        int free = freeSlots(w) - reserved.getOrDefault(w.worker(), 0);
        if (free > 0 && (most == null || free > freeSlots(most) - reserved.getOrDefault(most.worker(), 0))) {
          most = w;
        }
      }
      reserved.merge(most.worker(), 1, Integer::sum);
    }
    return reserved;
  }

  /** Why {@code attempt} waits for {@code slots} slots. Holding this. */
  private String waiting(AttemptId attempt, int slots) {
    Duration t = settings.capacityTimeout();
    String upTo = t.toMillis() % 1000 == 0 ? t.toSeconds() + " s" : t.toMillis() + " ms";
    return "waiting up to " + upTo + " for " + slots + " free slot" + (slots == 1 ? "" : "s") + ": "
        + freeOf(attempt) + (capacity == Capacity.SHARED ? "" : ", while the workers made for it start");
  }

  /** Why {@code attempt} did not get {@code slots} slots in time. Holding this. */
  private String shortage(AttemptId attempt, int slots) {
    return "attempt " + attempt + " needs " + slots + (slots == 1 ? " slot" : " slots") + ", but " + freeOf(attempt)
        + " after waiting " + settings.capacityTimeout().toMillis() + " ms; " + capacity.shortage(attempt);
  }

  /** {@code the 2 workers of the pool have 3 free (of 4)}: what {@code attempt} may use. Holding this. */
  private String freeOf(AttemptId attempt) {
    List<WorkerSession> serving = serving(attempt);
    boolean one = serving.size() == 1;
    String whose = (one ? "worker " : "workers ") + (capacity == Capacity.SHARED ? "of the pool" : "it may use");
    return "the " + serving.size() + " " + whose + (one ? " has " : " have ") + totalFree(attempt) + " free (of "
        + serving.stream().mapToInt(WorkerSession::slots).sum() + ")";
  }

  /** The registered workers that may take {@code attempt}'s tasks. Holding this. */
  private List<WorkerSession> serving(AttemptId attempt) {
    Capacity c = capacity;
    return workers.values().stream().filter(w -> c.serves(attempt, w.worker())).toList();
  }

  private int totalFree(AttemptId attempt) {
    return serving(attempt).stream().mapToInt(this::freeSlots).sum();
  }

  private int freeSlots(WorkerSession w) {
    int used = 0;
    for (Route r : routes.values()) {
      used += r.reserved(w.worker());
    }
    return w.slots() - used;
  }

  @Override
  public void deploy(AttemptDeployment deployment, WorkerReports reports) {
    Route route = routes.get(deployment.attempt());
    if (route == null) {
      throw new IllegalStateException("deploy of " + deployment.attempt() + " before its slots were acquired");
    }
    Map<String, String> addresses = new LinkedHashMap<>();
    synchronized (this) {
      for (TaskDeployment t : deployment.tasks()) {
        WorkerSession s = workers.get(t.worker());
        if (s == null) {
          throw new WorkerException(new Failure(Failure.Domain.EXTERNAL, true, "worker '" + t.worker()
              + "' left the pool before attempt " + deployment.attempt() + " was deployed"), null);
        }
        addresses.put(t.worker(), s.dataAddress());
      }
    }
    AttemptDeployment d = deployment.withNetwork(new AttemptDeployment.Network(tokens.issue(deployment.attempt()),
        addresses));
    route.deployed(d, reports);
    if (!d.sinkRecoveries().isEmpty()) {
      String recoverer = d.tasks().stream().filter(t -> isSinkStage(d, t.stageId())).map(TaskDeployment::worker)
          .findFirst().orElse(d.tasks().get(0).worker());
      await(recoverer, session(recoverer).request(new ControlMessage.RecoverSinks(d)), "recovering its sinks");
    }
    AttemptDeployment rest = d.withoutSinkRecoveries();
    Map<String, CompletableFuture<Failure>> answers = new LinkedHashMap<>();
    for (String w : addresses.keySet()) {
      answers.put(w, session(w).request(new ControlMessage.Deploy(rest)));
    }
    try {
      answers.forEach((w, f) -> await(w, f, "deploying its tasks"));
    } catch (WorkerException e) {
      cancel(d.attempt());
      throw e;
    }
  }

  private static boolean isSinkStage(AttemptDeployment d, int stageId) {
    return d.plan().stage(stageId).operators().stream().anyMatch(o -> o instanceof SinkPlan);
  }

  private WorkerSession session(String worker) {
    synchronized (this) {
      WorkerSession s = workers.get(worker);
      if (s == null) {
        throw new WorkerException(new Failure(Failure.Domain.EXTERNAL, true, "worker '" + worker
            + "' is not in the pool (lost meanwhile)"), null);
      }
      return s;
    }
  }

  private void await(String worker, CompletableFuture<Failure> answer, String what) {
    Failure f;
    try {
      f = answer.get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f = new Failure(Failure.Domain.INTERNAL, true, "worker '" + worker + "' did not finish " + what + " within "
          + settings.requestTimeout().toMillis() + " ms");
    } catch (ExecutionException e) {
      f = new Failure(Failure.Domain.INTERNAL, true, "worker '" + worker + "' failed " + what + ": "
          + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f = new Failure(Failure.Domain.INTERNAL, true, "interrupted while worker '" + worker + "' was " + what);
    }
    if (f != null) {
      throw new WorkerException(f, null);
    }
  }

  @Override
  public void triggerCheckpoint(AttemptId attempt, long checkpointId) {
    triggerCheckpoint(attempt, checkpointId, false);
  }

  @Override
  public void triggerCheckpoint(AttemptId attempt, long checkpointId, boolean stopSources) {
    Route r = routes.get(attempt);
    if (r == null || r.deployment() == null) {
      return;
    }
    for (String w : r.workersOf(stage -> stage.operators().get(0) instanceof SourcePlan)) {
      WorkerSession s = live(w);
      if (s != null) {
        s.tell(new ControlMessage.TriggerCheckpoint(attempt, checkpointId, stopSources));
      }
    }
  }

  @Override
  public void notifyCheckpointComplete(AttemptId attempt, CheckpointMetadata checkpoint) {
    Route r = routes.get(attempt);
    if (r == null || r.deployment() == null) {
      return;
    }
    long checkpointId = checkpoint.id();
    // Each task's pre-commits go to the worker that runs it: its writer holds the open transaction
    // and must learn that it is committed (a transaction committed behind its back keeps its
    // producer parked). A dead worker's go to another live worker, which takes them over.
    Map<String, Map<String, List<String>>> byWorker = new LinkedHashMap<>();
    for (TaskState t : checkpoint.tasks()) {
      String runsOn = r.deployment().task(t.stage(), t.subtask()).worker();
      t.operators().forEach((sink, s) -> {
        if (s.committable() != null) {
          String w = live(runsOn) != null ? runsOn : committer(r, sink);
          byWorker.computeIfAbsent(w, k -> new LinkedHashMap<>()).computeIfAbsent(sink, k -> new ArrayList<>())
              .add(s.committable());
        }
      });
    }
    Map<String, CompletableFuture<Failure>> answers = new LinkedHashMap<>();
    byWorker.forEach((w, c) -> answers.put(w, session(w).request(
        new ControlMessage.CheckpointComplete(attempt, checkpointId, c))));
    answers.forEach((w, f) -> await(w, f, "committing checkpoint " + checkpointId));
  }

  /**
   * A live worker to commit {@code sink} for a subtask whose worker is gone: one running another
   * subtask of it, else any live one of the attempt.
   */
  private String committer(Route r, String sink) {
    Set<String> candidates = new LinkedHashSet<>(r.workersOf(stage -> stage.operators().stream()
        .anyMatch(o -> o instanceof SinkPlan && o.id().equals(sink))));
    candidates.addAll(r.workersOf(stage -> true));
    for (String w : candidates) {
      if (live(w) != null) {
        return w;
      }
    }
    throw new WorkerException(new Failure(Failure.Domain.EXTERNAL, true, "no live worker of attempt " + r.id()
        + " is left to commit sink '" + sink + "'"), null);
  }

  private synchronized WorkerSession live(String worker) {
    return workers.get(worker);
  }

  @Override
  public Optional<RunningAttempt> running(String job, Duration timeout) throws InterruptedException {
    if (!settings.reattach()) {
      return Optional.empty();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (this) {
      while (true) {
        for (Route r : routes.values()) {
          if (r.orphan() && r.id().job().equals(job) && r.complete(workers.keySet())) {
            return Optional.of(new RunningAttempt(r.deployment(), r.lastCheckpointId()));
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  @Override
  public void adopt(AttemptId attempt, WorkerReports reports) {
    Route r;
    synchronized (this) {
      r = routes.get(attempt);
      if (r == null || !r.orphan() || !r.complete(workers.keySet())) {
        throw new WorkerException(new Failure(Failure.Domain.EXTERNAL, true, "attempt " + attempt + " no longer runs "
            + "on workers of this pool"), null);
      }
    }
    r.adopt(reports);
    LOG.log(System.Logger.Level.INFO, "attempt {0} taken over: it runs on {1}", attempt, r.workersOf(stage -> true));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Without re-attach, or for an attempt not deployed (yet), this is {@link #release}: nothing of
   * it runs on that the next control plane could follow.
   */
  @Override
  public void detach(AttemptId attempt) {
    Route r = routes.get(attempt);
    if (!settings.reattach() || r == null || r.deployment() == null) {
      release(attempt);
      return;
    }
    letGo.add(attempt);
    capacity.detached(attempt); // before the route goes: the attempt is always one or the other to it
    if (routes.remove(attempt, r)) {
      r.release(); // its workers keep it running, for the next control plane
      synchronized (this) {
        notifyAll();
      }
    }
  }

  @Override
  public void cancel(AttemptId attempt) {
    Route r = routes.get(attempt);
    if (r == null) {
      return;
    }
    for (String w : r.workersOf(stage -> true)) {
      WorkerSession s = live(w);
      if (s != null) {
        s.tell(new ControlMessage.Cancel(attempt));
      }
    }
  }

  @Override
  public void release(AttemptId attempt) {
    Route r = routes.remove(attempt);
    capacity.released(attempt); // also when acquire gave up before the attempt had a route
    if (r == null) {
      return;
    }
    r.release();
    for (String w : r.workersOf(stage -> true)) {
      WorkerSession s = live(w);
      if (s != null) {
        s.tell(new ControlMessage.Release(attempt));
      }
    }
    synchronized (this) {
      notifyAll(); // slots came free
    }
  }

  @Override
  public void close() {
    monitor.shutdownNow();
    for (AttemptId a : List.copyOf(routes.keySet())) {
      release(a);
    }
    for (WorkerSession s : sessions) {
      s.close("the control plane is shutting down");
    }
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
