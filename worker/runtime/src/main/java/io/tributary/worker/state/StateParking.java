package io.tributary.worker.state;

import io.tributary.state.ForwardingStateBackendFactory;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keyed state backends kept open from one attempt of a job to the next in this process, so that a
 * task whose key groups did not change across a rescale goes on with its state as it is instead of
 * restoring it (contract C7: the state moves nowhere).
 *
 * <p>A task that is cancelled while its state is exactly its last checkpoint's (it took no input
 * after that barrier: the rescale's checkpoint stops the sources) {@linkplain Factory#park parks}
 * each backend with the future of that snapshot. The next attempt's task on the same worker asks
 * to {@linkplain Factory#claim claim} it with what it restores from: it gets the open backend only
 * when its key groups are all in one snapshot of exactly its range, equal to the parked one's (same
 * backend kind, checkpoint, key groups and objects) and completed; otherwise it restores as usual.
 * A backend nobody claims is closed when the job's next attempt has built its tasks on that worker
 * ({@link #dropUnclaimed}), or after {@link #DEFAULT_HOLD}, or when this is closed. Thread-safe.
 */
public final class StateParking implements AutoCloseable {
  /** How long a parked backend waits for its next attempt at most. */
  public static final Duration DEFAULT_HOLD = Duration.ofSeconds(30);

  private final long holdNanos;
  private final ScheduledExecutorService expiry;
  /** Guarded by this. */
  private final List<Parked> parked = new ArrayList<>();
  private boolean closed;
  private long adopted;

  private record Parked(String worker, String job, String operatorId, String backend, KeyedStateBackend state,
      CompletableFuture<StateSnapshot> at) {}

  public StateParking() {
    this(DEFAULT_HOLD);
  }

  public StateParking(Duration hold) {
    this.holdNanos = hold.toNanos();
    this.expiry = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "state-parking");
      t.setDaemon(true);
      return t;
    });
  }

  /** {@code factories} by name, each wrapped so that its backends can be parked here. */
  public Map<String, StateBackendFactory> wrap(Map<String, StateBackendFactory> factories) {
    Map<String, StateBackendFactory> out = new LinkedHashMap<>();
    factories.forEach((name, f) -> out.put(name, f instanceof Factory p && p.parking() == this ? p : new Factory(f)));
    return out;
  }

  /** The backends parked now. */
  public synchronized int parked() {
    return parked.size();
  }

  /** How many parked backends tasks have claimed so far. */
  public synchronized long adopted() {
    return adopted;
  }

  /**
   * Closes the backends parked by {@code worker} for {@code job} that no task claimed: the job's
   * next attempt has built its tasks there, so nobody will.
   */
  public void dropUnclaimed(String worker, String job) {
    closeAll(take(p -> p.worker.equals(worker) && p.job.equals(job)));
  }

  @Override
  public void close() {
    List<Parked> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(parked);
      parked.clear();
    }
    expiry.shutdownNow();
    closeAll(all);
  }

  private void park(Parked p) {
    synchronized (this) {
      if (!closed) {
        parked.add(p);
        expiry.schedule(() -> closeAll(take(q -> q == p)), holdNanos, TimeUnit.NANOSECONDS);
        return;
      }
    }
    p.state.close();
  }

  private KeyedStateBackend claim(String worker, String job, String operatorId, String backend, KeyGroupRange range,
      int maxParallelism, List<StateSnapshot> snapshots) {
    StateSnapshot wanted = null;
    for (StateSnapshot s : snapshots) {
      if (s.range().start() < range.end() && range.start() < s.range().end()) { // half-open ranges overlap
        if (wanted != null || !s.range().equals(range)) {
          return null; // the key groups come from more than one snapshot, or from a part of one: restore
        }
        wanted = s;
      }
    }
    if (wanted == null) {
      return null;
    }
    List<Parked> found = take(p -> p.worker.equals(worker) && p.job.equals(job) && p.operatorId.equals(operatorId)
        && p.backend.equals(backend) && p.state.keyGroupRange().equals(range));
    KeyedStateBackend open = null;
    for (Parked p : found) {
      if (open == null && p.state.maxParallelism() == maxParallelism && p.at.isDone()
          && !p.at.isCompletedExceptionally() && p.at.join().equals(wanted)) {
        open = p.state;
      } else {
        p.state.close(); // its task's state is of another checkpoint: nobody can use it
      }
    }
    if (open != null) {
      synchronized (this) {
        adopted++;
      }
      System.getLogger(StateParking.class.getName()).log(System.Logger.Level.INFO, "{0}: {1} of key groups {2} "
          + "goes on with the state of checkpoint {3} kept open", job, operatorId, range, String.valueOf(wanted.checkpointId()));
    }
    return open;
  }

  private synchronized List<Parked> take(java.util.function.Predicate<Parked> which) {
    List<Parked> out = new ArrayList<>();
    for (Iterator<Parked> it = parked.iterator(); it.hasNext(); ) {
      Parked p = it.next();
      if (which.test(p)) {
        out.add(p);
        it.remove();
      }
    }
    return out;
  }

  private static void closeAll(List<Parked> ps) {
    for (Parked p : ps) {
      try {
        p.state.close();
      } catch (RuntimeException e) {
        // a backend that fails to close leaves a cache behind at worst
      }
    }
  }

  /** A factory whose backends can be parked in its {@link StateParking}; otherwise its delegate. */
  public final class Factory extends ForwardingStateBackendFactory {
    private final StateBackendFactory delegate;

    private Factory(StateBackendFactory delegate) {
      this.delegate = delegate;
    }

    public StateParking parking() {
      return StateParking.this;
    }

    /**
     * Parks {@code state}, one of this factory's backends whose task ended on {@code worker} with
     * exactly the state of the snapshot {@code at} completes with (or fails); closes it if the
     * parking is closed.
     */
    public void park(String worker, String job, String operatorId, KeyedStateBackend state,
        CompletableFuture<StateSnapshot> at) {
      StateParking.this.park(new Parked(worker, job, operatorId, delegate.name(), state, at));
    }

    /**
     * The backend parked on {@code worker} whose state is exactly what {@code snapshots} hold for
     * {@code range} (one of them, of this very range), taken out of the parking; null when there is
     * none, and the task restores.
     */
    public KeyedStateBackend claim(String worker, String job, String operatorId, KeyGroupRange range,
        int maxParallelism, List<StateSnapshot> snapshots) {
      return StateParking.this.claim(worker, job, operatorId, delegate.name(), range, maxParallelism, snapshots);
    }

    @Override
    protected StateBackendFactory delegate() {
      return delegate;
    }
  }
}
