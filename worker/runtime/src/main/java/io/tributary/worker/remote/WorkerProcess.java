package io.tributary.worker.remote;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.tributary.protocol.AttemptId;
import io.tributary.protocol.ControlMessage;
import io.tributary.protocol.Failure;
import io.tributary.protocol.WorkerReport;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.store.ObjectStore;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.net.DataTokens;
import io.tributary.worker.net.NetTransport;
import io.tributary.worker.pool.Failures;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.pool.LocalAttempt;
import io.tributary.worker.pool.SinkRecoveries;
import io.tributary.worker.state.StateBackends;
import io.tributary.worker.task.ConnectorFactory;
import io.tributary.connectors.ConnectorPolicy;
import java.util.function.Function;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A worker: connects to the control plane, registers its slots and data address, heartbeats, runs
 * the attempts it is given and reports on them. It holds nothing that must survive: its state
 * backends keep durable state in the control plane's object store, its directory is a cache.
 *
 * <pre>
 *   CONNECTING -registered-> SERVING -stream ended, refused-> DETACHED (attempts go on) -> CONNECTING
 *        |                      \-- released or fenced --> (drops that attempt)
 *        \-- refused for a wrong secret --> STOPPED
 *   DETACHED for longer than the re-attach grace --> (drops every attempt)
 * </pre>
 *
 * <p>When its control stream ends — the control plane went away, another replica took over, or it
 * declared this worker lost because it was silent too long — the worker keeps its attempts running
 * for the re-attach grace while it registers again (with zero grace it drops them at once). It tells
 * the control plane it registers with which attempts it still runs; that one takes them over, or
 * tells it to release them (a control plane that declared this worker lost always does: it restarted
 * them elsewhere, and fencing holds). Attempts nobody took over within the grace are dropped: their
 * tasks are cancelled and their data connections closed. While no control plane listens, its tasks'
 * reports are dropped, except their ends and final states, which are told again once registered.
 */
public final class WorkerProcess implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(WorkerProcess.class.getName());
  private static final long OUTPUT_MILLIS = 200;

  /**
   * @param controlPlane {@code host:port} of the control plane's worker port, or several
   *     comma-separated (one per replica): tried in turn until one, the leader, accepts
   * @param worker this worker's id, unique in the pool
   * @param slots tasks it runs at once
   * @param cacheDir its local files (RocksDB, file cache): a cache, wiped at start
   * @param bindHost the address its data port listens on
   * @param advertisedHost the host other workers reach its data port at
   * @param dataPort its data port, 0 for any free one
   * @param clusterSecret what it proves to the control plane
   * @param connectors the sources and sinks it runs, given what the control plane allows them to reach
   *     (its policy arrives as the worker registers)
   * @param reattachGrace how long it keeps its attempts running once its control stream ended, for
   *     a control plane to take them over (zero: dropped at once)
   */
  public record Config(String controlPlane, String worker, int slots, Path cacheDir, String bindHost,
      String advertisedHost, int dataPort, String clusterSecret, Function<ConnectorPolicy, ConnectorFactory> connectors,
      java.time.Duration reattachGrace) {
    /** With the default re-attach grace. */
    public Config(String controlPlane, String worker, int slots, Path cacheDir, String bindHost, String advertisedHost,
        int dataPort, String clusterSecret, Function<ConnectorPolicy, ConnectorFactory> connectors) {
      this(controlPlane, worker, slots, cacheDir, bindHost, advertisedHost, dataPort, clusterSecret, connectors,
          DEFAULT_REATTACH_GRACE);
    }
  }

  /** How long a worker keeps its attempts running without a control plane unless told otherwise. */
  public static final java.time.Duration DEFAULT_REATTACH_GRACE = java.time.Duration.ofSeconds(30);

  private final Config config;
  private final NetTransport transport;
  private final Map<AttemptId, LocalAttempt> attempts = new ConcurrentHashMap<>();
  private final ExecutorService requests;
  private final ScheduledExecutorService timers;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile Session session;
  /** Connections opened so far (timer thread): picks the next control-plane address. */
  private int connections;
  /** Registrations so far: a drop scheduled while detached checks that none came since. */
  private final java.util.concurrent.atomic.AtomicLong registrations = new java.util.concurrent.atomic.AtomicLong();
  /** When the control stream last ended after a registration (nanoTime), or 0 while registered. */
  private volatile long detachedSince;
  private volatile boolean closed;
  private volatile String stopReason;
  // set once registered (the storage is the control plane's)
  private volatile ObjectStore store;
  private volatile StateBackends state;
  private volatile InProcessWorkerPool.Options options;
  private volatile ConnectorFactory connectors;

  private WorkerProcess(Config config) {
    this.config = config;
    this.transport = new NetTransport(config.worker(), config.bindHost(), config.dataPort(), config.advertisedHost(),
        new DataTokens(config.clusterSecret()));
    this.requests = Executors.newSingleThreadExecutor(r -> thread(r, "worker-requests"));
    this.timers = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "worker-timers"));
  }

  private static Thread thread(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** Starts the worker: it connects (and reconnects) until {@link #close}d or refused. */
  public static WorkerProcess start(Config config) {
    WorkerProcess w = new WorkerProcess(config);
    w.timers.scheduleWithFixedDelay(() -> w.each(LocalAttempt::reportOutput), OUTPUT_MILLIS, OUTPUT_MILLIS,
        TimeUnit.MILLISECONDS);
    w.timers.execute(w::connect);
    return w;
  }

  /** Where other workers send this one data. */
  public String dataAddress() {
    return transport.address();
  }

  /** Waits until the worker stops for good (refused, or closed); returns why. */
  public String awaitStop() throws InterruptedException {
    stopped.await();
    return stopReason;
  }

  private void each(java.util.function.Consumer<LocalAttempt> report) {
    for (LocalAttempt a : attempts.values()) {
      try {
        report.accept(a);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "reporting " + a.id() + " failed", e);
      }
    }
  }

  // ---- the control stream

  private void connect() {
    if (closed) {
      return;
    }
    Session s = new Session();
    session = s;
    s.open();
  }

  /**
   * The control-plane address to connect to next: the given ones in turn, so that a worker given
   * every replica's finds the one that leads (the others turn it away).
   */
  private String nextControlPlane() {
    String[] addresses = config.controlPlane().split(",");
    return addresses[Math.floorMod(connections++, addresses.length)].trim();
  }

  private void reconnectLater(String why) {
    if (closed) {
      return;
    }
    LOG.log(System.Logger.Level.WARNING, "worker {0}: {1}; registering again in 1 s", config.worker(), why);
    timers.schedule(this::connect, 1, TimeUnit.SECONDS);
  }

  /**
   * The control stream ended: the attempts go on for the re-attach grace (counted from the first
   * end since the last registration), then are dropped unless this worker registered meanwhile.
   * Request thread.
   */
  private void detached(String why) {
    java.time.Duration grace = config.reattachGrace();
    if (grace.isZero() || grace.isNegative()) {
      dropAll(why);
      return;
    }
    long now = System.nanoTime();
    if (detachedSince == 0) {
      detachedSince = now;
      if (!attempts.isEmpty()) {
        LOG.log(System.Logger.Level.INFO, "worker {0}: keeping {1} attempt(s) running for up to {2} ms while it "
            + "registers again, for the control plane to take them over", config.worker(), attempts.size(),
            grace.toMillis());
      }
      long registered = registrations.get();
      timers.schedule(() -> requests.execute(() -> {
        if (registrations.get() == registered && !attempts.isEmpty()) {
          dropAll("no control plane took it over within " + grace.toMillis() + " ms (" + why + ")");
        }
      }), grace.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Every attempt this worker runs ends here: the control plane restarts them elsewhere. */
  private void dropAll(String why) {
    for (AttemptId id : List.copyOf(attempts.keySet())) {
      drop(id, why);
    }
  }

  private void drop(AttemptId id, String why) {
    LocalAttempt a = attempts.remove(id);
    if (a != null) {
      LOG.log(System.Logger.Level.INFO, "worker {0}: dropping attempt {1}: {2}", config.worker(), id, why);
      try {
        a.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    transport.release(id);
  }

  private void registered(Envelope.Registered r) {
    if (state == null) {
      try {
        Path local = config.cacheDir();
        Files.createDirectories(local);
        if (!r.storage().contains("://")) {
          Files.createDirectories(Path.of(r.storage()));
        }
        connectors = config.connectors().apply(r.access().policy());
        store = ObjectStores.open(r.storage());
        state = new StateBackends(store, local);
        options = new InProcessWorkerPool.Options(state.factories(), connectors,
            InProcessChannel.DEFAULT_CREDITS, store);
        long metrics = Math.max(10, r.metricsMillis()); // the first registration's interval holds
        timers.scheduleWithFixedDelay(() -> each(LocalAttempt::reportMetrics), metrics, metrics,
            TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        stop("cannot open the control plane's storage " + r.storage() + ": " + e.getMessage());
        return;
      }
    }
    long every = Math.max(100, r.heartbeatMillis());
    Session s = session;
    registrations.incrementAndGet();
    detachedSince = 0;
    s.registered = true;
    for (LocalAttempt a : attempts.values()) {
      a.endings().forEach(e -> s.send(new Envelope.Report(e))); // the control plane before may not have had them
    }
    timers.scheduleWithFixedDelay(() -> {
      if (session == s) {
        s.send(new Envelope.Heartbeat());
      } else {
        throw new IllegalStateException("superseded"); // ends this heartbeat schedule
      }
    }, every, every, TimeUnit.MILLISECONDS);
    LOG.log(System.Logger.Level.INFO, "worker {0} registered: {1} slots, data at {2}, storage {3}", config.worker(),
        config.slots(), transport.address(), r.storage());
  }

  private void stop(String why) {
    stopReason = why;
    closed = true;
    dropAll(why);
    stopped.countDown();
  }

  /** Carries out one request of the control plane. Request thread. */
  private Failure handle(ControlMessage m) {
    try {
      if (m instanceof ControlMessage.RecoverSinks r) {
        SinkRecoveries.run(r.deployment(), connectors);
      } else if (m instanceof ControlMessage.Deploy d) {
        AttemptId id = d.attempt();
        LocalAttempt a = LocalAttempt.start(d.deployment(), config.worker(), options, transport,
            this::toControlPlane);
        attempts.put(id, a);
      } else if (m instanceof ControlMessage.TriggerCheckpoint t) {
        LocalAttempt a = attempts.get(t.attempt());
        if (a != null) {
          a.trigger(t.checkpointId(), t.stopSources());
        }
      } else if (m instanceof ControlMessage.CheckpointComplete c) {
        LocalAttempt a = attempts.get(c.attempt());
        if (a == null) {
          return new Failure(Failure.Domain.INTERNAL, true, "attempt " + c.attempt() + " does not run on worker '"
              + config.worker() + "'");
        }
        a.commit(c.committables());
      } else if (m instanceof ControlMessage.Cancel c) {
        LocalAttempt a = attempts.get(c.attempt());
        if (a != null) {
          a.cancel();
        }
      } else if (m instanceof ControlMessage.Release r) {
        drop(r.attempt(), "released by the control plane");
      }
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Failure(Failure.Domain.INTERNAL, true, "interrupted");
    } catch (RuntimeException | Error e) {
      return Failures.classify(e).prefixed("worker '" + config.worker() + "': ");
    }
  }

  /** A report of a task, to the control plane this worker is registered with now (dropped while none). */
  private void toControlPlane(WorkerReport report) {
    Session s = session;
    if (s != null && s.registered) {
      s.send(new Envelope.Report(report));
    }
  }

  /** What this worker still runs, for the control plane it registers with. */
  private List<io.tributary.protocol.RunningAttempt> running() {
    return attempts.values().stream()
        .map(a -> new io.tributary.protocol.RunningAttempt(a.deployment(), a.lastTriggered())).toList();
  }

  @Override
  public void close() {
    closed = true;
    Session s = session;
    if (s != null) {
      s.close();
    }
    dropAll("the worker is shutting down");
    timers.shutdownNow();
    requests.shutdownNow();
    transport.close();
    if (state != null) {
      state.close();
    }
    if (store != null) {
      store.close();
    }
    stopReason = stopReason == null ? "closed" : stopReason;
    stopped.countDown();
  }

  /** One connection of the control stream. */
  private final class Session implements StreamObserver<Envelope> {
    private ManagedChannel channel;
    private StreamObserver<Envelope> out;
    private volatile boolean ended;
    /** Set once the control plane accepted this worker on this stream (reports flow from then on). */
    volatile boolean registered;

    void open() {
      String address = nextControlPlane();
      int colon = address.lastIndexOf(':');
      channel = NettyChannelBuilder.forAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)))
          .usePlaintext()
          .maxInboundMessageSize(ControlRpc.MAX_MESSAGE_BYTES)
          .keepAliveTime(2, TimeUnit.SECONDS)
          .keepAliveTimeout(5, TimeUnit.SECONDS)
          .keepAliveWithoutCalls(true)
          .build();
      out = ClientCalls.asyncBidiStreamingCall(channel.newCall(ControlRpc.CONNECT, CallOptions.DEFAULT), this);
      send(new Envelope.Hello(config.worker(), ProcessHandle.current().pid()));
    }

    synchronized void send(Envelope e) {
      if (ended) {
        return;
      }
      try {
        out.onNext(e);
      } catch (RuntimeException ex) {
        // the stream is gone: onError follows
      }
    }

    @Override
    public void onNext(Envelope e) {
      if (e instanceof Envelope.Challenge c) {
        send(new Envelope.Register(config.worker(), ClusterSecrets.proof(config.clusterSecret(), c.nonce(),
            config.worker()), config.slots(), transport.address(), ProcessHandle.current().pid(), running()));
      } else if (e instanceof Envelope.Registered r) {
        registered(r);
      } else if (e instanceof Envelope.Refused r) {
        refused(r.reason());
      } else if (e instanceof Envelope.Request r) {
        requests.execute(() -> {
          Failure f = handle(r.message());
          if (r.id() != 0) {
            send(new Envelope.Reply(r.id(), f));
          }
        });
      }
    }

    private void refused(String reason) {
      LOG.log(System.Logger.Level.WARNING, "worker {0} refused by the control plane: {1}", config.worker(), reason);
      if (reason.startsWith("the cluster secret is wrong")) {
        stop("refused: " + reason);
      }
    }

    @Override
    public void onError(Throwable t) {
      end("the control stream ended: " + t.getMessage());
    }

    @Override
    public void onCompleted() {
      end("the control plane closed the control stream");
    }

    private void end(String why) {
      synchronized (this) {
        if (ended) {
          return;
        }
        ended = true;
      }
      channel.shutdownNow();
      if (session == this) {
        requests.execute(() -> detached(why));
        requests.execute(() -> reconnectLater(why));
      }
    }

    synchronized void close() {
      ended = true;
      if (out != null) {
        try {
          out.onCompleted();
        } catch (RuntimeException e) {
          // gone already
        }
      }
      if (channel != null) {
        channel.shutdownNow();
      }
    }
  }
}
