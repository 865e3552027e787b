package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.metadata.Lease;
import io.tributary.scheduler.metadata.LeaseGrant;
import io.tributary.scheduler.metadata.LeaseLostException;
import io.tributary.scheduler.metadata.MetadataStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The control-plane leader election of one replica: a {@link Lease} on {@link #KEY} in the shared
 * metadata store, tried for and renewed every quarter of its time. The holder's identity carries
 * the URL its API serves on, so that followers know where to forward what only the leader can do.
 *
 * <p>A replica stops leading a fifth of the lease time before its grant lapses by its own clock,
 * whether or not the store answered, so that the next leader (which waits the whole lease time)
 * never overlaps it while clocks agree within that margin; where they do not, the epoch fences.
 */
public final class LeaderLease implements Leadership, AutoCloseable {
  /** The lease item's key. */
  public static final String KEY = "leases/control-plane/leader";
  /** The default lease time. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

  private static final System.Logger LOG = System.getLogger(LeaderLease.class.getName());

  /** Told when this replica starts and stops leading; called on the lease's own thread, one at a time. */
  public interface Listener {
    void elected(long epoch);

    void lost(String why);
  }

  private final MetadataStore store;
  private final String replicaId;
  private final Clock clock;
  private final Duration ttl;
  private final Duration margin;
  private final ScheduledExecutorService thread;
  private volatile Lease lease;
  private volatile String holder;
  private volatile Listener listener;
  private volatile LeaseGrant grant;
  private volatile LeaseGrant seen;
  private volatile boolean closed;

  /**
   * @param replicaId unique among the replicas and their restarts (for example host, pid and a random part)
   * @param ttl the lease time: how long a leader that stopped renewing (dead, paused, cut off) keeps
   *     the others from taking over
   */
  public LeaderLease(MetadataStore store, String replicaId, Duration ttl, Clock clock) {
    if (replicaId.contains("@")) {
      throw new IllegalArgumentException("a replica id cannot contain '@': " + replicaId);
    }
    if (ttl.toMillis() < 200) {
      throw new IllegalArgumentException("the lease time must be at least 200ms, got " + ttl);
    }
    this.store = Objects.requireNonNull(store, "store");
    this.replicaId = replicaId;
    this.clock = clock;
    this.ttl = ttl;
    this.margin = ttl.dividedBy(5);
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "control-lease");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts trying for the lease now, and every quarter of the lease time.
   *
   * @param url where this replica's API is reached by the other replicas
   */
  public void start(String url, Listener listener) {
    prepare(url, listener);
    long every = Math.max(50, ttl.toMillis() / 4);
    thread.scheduleWithFixedDelay(this::tick, 0, every, TimeUnit.MILLISECONDS);
  }

  /** Names this replica in the lease, without trying for it yet (tests then {@link #tick} by hand). */
  void prepare(String url, Listener listener) {
    if (lease != null) {
      throw new IllegalStateException("the lease is already contended for");
    }
    this.listener = Objects.requireNonNull(listener, "listener");
    holder = replicaId + "@" + Objects.requireNonNull(url, "url");
    lease = new Lease(store, KEY, holder, ttl, clock);
  }

  /** One try: renew the grant held, or acquire the lease if nobody holds it. */
  void tick() {
    if (closed) {
      return;
    }
    LeaseGrant held = grant;
    try {
      if (held != null) {
        if (!valid(held)) {
          lose("its lease lapsed before it could renew it (paused or cut off from the metadata store)");
          return;
        }
        Optional<LeaseGrant> renewed = lease.renew(held);
        if (renewed.isPresent()) {
          grant = renewed.get();
          seen = renewed.get();
        } else {
          lose("another replica took the lease");
        }
        return;
      }
      Optional<LeaseGrant> acquired = lease.tryAcquire();
      if (acquired.isPresent()) {
        grant = acquired.get();
        seen = acquired.get();
        LOG.log(System.Logger.Level.INFO, "this replica leads the control plane now (epoch {0})",
            acquired.get().epoch());
        listener.elected(acquired.get().epoch());
      } else {
        seen = lease.current().orElse(null);
      }
    } catch (RuntimeException e) {
      if (held != null && !valid(held)) {
        lose("it could not renew its lease: " + e.getMessage());
      } else {
        LOG.log(System.Logger.Level.WARNING, "the control-plane lease could not be read or written: {0}",
            e.getMessage());
      }
    }
  }

  private void lose(String why) {
    grant = null;
    try {
      seen = lease.current().orElse(null);
    } catch (RuntimeException e) {
      seen = null; // the store does not answer: no leader known until the next try
    }
    LOG.log(System.Logger.Level.WARNING, "this replica no longer leads the control plane: {0}", why);
    listener.lost(why);
  }

  private boolean valid(LeaseGrant g) {
    return clock.instant().isBefore(g.expiresAt().minus(margin));
  }

  @Override
  public long epoch() {
    LeaseGrant g = grant;
    if (g == null || !valid(g)) {
      throw new LeaseLostException("this control-plane replica does not lead (any more): another replica "
          + "decides the jobs' fate");
    }
    return g.epoch();
  }

  @Override
  public boolean leading() {
    LeaseGrant g = grant;
    return g != null && valid(g);
  }

  @Override
  public Optional<String> leaderUrl() {
    LeaseGrant g = seen;
    if (g == null || leading() || !g.isValidAt(clock.instant()) || g.holder().startsWith(replicaId + "@")) {
      return Optional.empty();
    }
    int at = g.holder().indexOf('@');
    return at < 0 ? Optional.empty() : Optional.of(g.holder().substring(at + 1));
  }

  /** The holder identity this replica writes into the lease, {@code <replica id>@<url>}, once started. */
  public String holder() {
    return holder;
  }

  /** This replica's id. */
  public String replicaId() {
    return replicaId;
  }

  /**
   * Stops trying; a held lease is released, so another replica can take over at once. Call after
   * the jobs this replica ran were ended.
   */
  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LeaseGrant g = grant;
    grant = null;
    if (g != null && lease != null) {
      try {
        lease.release(g);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "releasing the control-plane lease failed: {0}", e.getMessage());
      }
    }
  }
}
