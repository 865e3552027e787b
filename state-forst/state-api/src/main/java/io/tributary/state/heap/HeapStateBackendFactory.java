package io.tributary.state.heap;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.StateSnapshot;
import io.tributary.state.store.ObjectStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates {@link HeapKeyedStateBackend}s; configured as {@code heap}.
 *
 * <p>Made with an {@link ObjectStore}, its backends snapshot into it and it restores from their
 * snapshots; it then owns the upload threads, so close it after every backend it created (the
 * store stays open: it belongs to the caller). Made without one, it can do neither and closing it
 * does nothing.
 *
 * <p>Restore (contracts C7, C8) accepts snapshots written at any parallelism: each key group of
 * the requested range comes from the newest snapshot whose range covers it, and is empty when that
 * snapshot has no object for it. Nothing is fetched until a key group is first accessed.
 *
 * <p>Retention (contract C8): the factory counts, per object, the retained snapshots that reference
 * it — those its backends produced and those {@linkplain #retain retained} — and
 * {@linkplain #release deletes} an object when the last of them is released.
 */
public final class HeapStateBackendFactory implements StateBackendFactory, AutoCloseable {
  public static final String NAME = "heap";
  private static final int UPLOAD_THREADS = 2;

  private final ObjectStore store;
  private final ExecutorService uploads;
  private final RetainedObjects retained;

  /** A factory whose backends can neither snapshot nor be restored; retain and release do nothing. */
  public HeapStateBackendFactory() {
    this.store = null;
    this.uploads = null;
    this.retained = null;
  }

  /** A factory whose backends snapshot into {@code store} and restore from it. */
  public HeapStateBackendFactory(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
    this.uploads = Executors.newFixedThreadPool(UPLOAD_THREADS, uploadThreads());
    this.retained = new RetainedObjects(store);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public KeyedStateBackend create(
      String jobName, String operatorId, KeyGroupRange range, int maxParallelism) {
    return new HeapKeyedStateBackend(range, maxParallelism, storage(jobName, operatorId), Map.of());
  }

  /**
   * {@inheritDoc}
   *
   * @throws UnsupportedOperationException when this factory has no object store and
   *     {@code snapshots} is not empty
   * @throws IllegalArgumentException when a snapshot was not written by the heap backend, or two
   *     snapshots of the same checkpoint cover the same key group
   */
  @Override
  public KeyedStateBackend restore(String jobName, String operatorId, KeyGroupRange range, int maxParallelism,
      List<StateSnapshot> snapshots) {
    if (store == null && !snapshots.isEmpty()) {
      throw new UnsupportedOperationException("heap state cannot be restored without an object store: "
          + "create the factory with new HeapStateBackendFactory(objectStore)");
    }
    Map<Integer, String> objects = objectsToRestore(range, snapshots);
    HeapStorage storage = storage(jobName, operatorId);
    if (storage != null) {
      objects = claimCopies(storage, range, objects);
    }
    return new HeapKeyedStateBackend(range, maxParallelism, storage, objects);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The copy holds one object per key group, {@code {directory}/state/{operator}/heap/kg-{g}}
   * (heap objects reference nothing else).
   *
   * @throws UnsupportedOperationException when this factory has no object store
   */
  @Override
  public StateSnapshot copyTo(String jobName, String operatorId, StateSnapshot snapshot, String directory) {
    checkBackend(snapshot, "copied");
    if (store == null) {
      throw new UnsupportedOperationException("heap state cannot be copied without an object store");
    }
    Map<Integer, String> copies = new HashMap<>();
    for (Map.Entry<Integer, String> e : snapshot.manifests().entrySet()) {
      String target = directory + "/state/" + operatorId + "/heap/kg-" + e.getKey();
      try {
        store.copy(e.getValue(), target);
      } catch (java.io.IOException ex) {
        throw new java.io.UncheckedIOException("cannot copy heap state object " + e.getValue() + " to " + target, ex);
      }
      copies.put(e.getKey(), target);
    }
    return new StateSnapshot(NAME, snapshot.checkpointId(), snapshot.range(), copies, snapshot.stateBytes(),
        snapshot.uploadedBytes());
  }

  /**
   * Restored objects that lie outside the job's own names (a {@linkplain #copyTo copy}, such as a
   * savepoint) are copied back under {@code {job}/state/{operator}/heap/claim-{uuid}/kg-{g}} before
   * the backend starts, counted as retained first, so that its snapshots never reference the copy
   * (which its owner may delete). One copy per key group of the range: heap state is small.
   */
  private Map<Integer, String> claimCopies(HeapStorage storage, KeyGroupRange range, Map<Integer, String> objects) {
    String own = storage.job() + "/state/";
    if (objects.values().stream().allMatch(o -> o.startsWith(own))) {
      return objects;
    }
    String claim = "claim-" + java.util.UUID.randomUUID();
    String prefix = storage.job() + "/state/" + storage.operator() + "/heap/" + claim + "/";
    Map<Integer, String> claimed = new HashMap<>(objects);
    objects.forEach((g, o) -> {
      if (!o.startsWith(own)) {
        claimed.put(g, prefix + "kg-" + g);
      }
    });
    retained.register(new RetainedObjects.SnapshotId(storage.job(), storage.operator() + "/" + claim, -1, range),
        claimed.values());
    objects.forEach((g, o) -> {
      if (!o.startsWith(own)) {
        try {
          store.copy(o, claimed.get(g));
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException("cannot copy restored heap state " + o + " to " + claimed.get(g), e);
        }
      }
    });
    return claimed;
  }

  /** Key group to object name, for the key groups of {@code range} that have state. */
  static Map<Integer, String> objectsToRestore(KeyGroupRange range, List<StateSnapshot> snapshots) {
    Map<Integer, StateSnapshot> newest = new HashMap<>();
    for (StateSnapshot s : snapshots) {
      checkBackend(s, "restored");
      for (int g = Math.max(range.start(), s.range().start()); g < Math.min(range.end(), s.range().end()); g++) {
        StateSnapshot previous = newest.get(g);
        if (previous != null && previous.checkpointId() == s.checkpointId()) {
          throw new IllegalArgumentException("snapshots " + previous.range() + " and " + s.range()
              + " of checkpoint " + s.checkpointId() + " both cover key group " + g);
        }
        if (previous == null || previous.checkpointId() < s.checkpointId()) {
          newest.put(g, s);
        }
      }
    }
    Map<Integer, String> objects = new HashMap<>();
    newest.forEach((g, s) -> {
      String object = s.manifests().get(g);
      if (object != null) {
        objects.put(g, object);
      }
    });
    return objects;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads nothing: a heap snapshot references exactly the objects of its manifests. Does nothing
   * when this factory has no object store.
   */
  @Override
  public void retain(String jobName, String operatorId, StateSnapshot snapshot) {
    checkBackend(snapshot, "retained");
    if (retained != null) {
      retained.register(id(jobName, operatorId, snapshot), snapshot.manifests().values());
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Deletes nothing when this factory has no object store.
   */
  @Override
  public List<String> release(String jobName, String operatorId, StateSnapshot snapshot) {
    return retained == null ? List.of() : retained.release(id(jobName, operatorId, snapshot));
  }

  /** Unreferenced objects whose deletion failed and will be retried by the next release. */
  Set<String> pendingDeletes() {
    return retained == null ? Set.of() : retained.pendingDeletes();
  }

  private static RetainedObjects.SnapshotId id(String jobName, String operatorId, StateSnapshot s) {
    return new RetainedObjects.SnapshotId(jobName, operatorId, s.checkpointId(), s.range());
  }

  private static void checkBackend(StateSnapshot s, String what) {
    if (!NAME.equals(s.backend())) {
      throw new IllegalArgumentException("snapshot " + s.checkpointId() + " was written by the '"
          + s.backend() + "' backend and cannot be " + what + " by '" + NAME + "'");
    }
  }

  private HeapStorage storage(String jobName, String operatorId) {
    return store == null ? null : new HeapStorage(store, uploads, retained, jobName, operatorId);
  }

  /**
   * Stops the upload threads once the uploads already started are done, waiting for them (up to a
   * minute, as forst does), so that nothing writes into the store once this returns; later
   * snapshots fail.
   */
  @Override
  public void close() {
    if (uploads == null) {
      return;
    }
    uploads.shutdown();
    try {
      if (!uploads.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES)) {
        System.getLogger(HeapStateBackendFactory.class.getName()).log(System.Logger.Level.WARNING,
            "heap state uploads still running a minute after the backend factory was closed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory uploadThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "heap-state-upload-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
