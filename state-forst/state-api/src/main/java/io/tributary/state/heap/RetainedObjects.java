package io.tributary.state.heap;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reference counts of heap state objects across the retained snapshots of one factory: an object is
 * deleted from the store when the last retained snapshot referencing it is released. Snapshots
 * share objects because a key group untouched since a restore keeps the object it was restored
 * from.
 *
 * <p>A snapshot counts each object once, however often it is registered. Deletions happen while
 * holding the lock, so an object cannot be registered again while it is being deleted; deletions
 * that fail are kept and retried by every later {@link #release}. Thread-safe.
 */
final class RetainedObjects {
  private static final System.Logger LOG = System.getLogger(RetainedObjects.class.getName());

  /** The identity of a snapshot: the subtasks of one operator share the checkpoint id. */
  record SnapshotId(String job, String operator, long checkpointId, KeyGroupRange range) {}

  private final ObjectStore store;
  private final Map<SnapshotId, Set<String>> snapshots = new HashMap<>();
  private final Map<String, Integer> refCounts = new HashMap<>();
  private final Set<String> pendingDeletes = new LinkedHashSet<>();

  RetainedObjects(ObjectStore store) {
    this.store = store;
  }

  /** Records that {@code snapshot} references {@code objects}, in addition to what it referenced. */
  synchronized void register(SnapshotId snapshot, Collection<String> objects) {
    Set<String> owned = snapshots.computeIfAbsent(snapshot, id -> new HashSet<>());
    for (String object : objects) {
      if (owned.add(object) && refCounts.merge(object, 1, Integer::sum) == 1) {
        pendingDeletes.remove(object);
      }
    }
  }

  /**
   * Forgets {@code snapshot} (an unknown one is ignored) and deletes the objects no retained
   * snapshot references any more, with the earlier failed deletions.
   *
   * @return the objects deleted by this call
   */
  synchronized List<String> release(SnapshotId snapshot) {
    Set<String> owned = snapshots.remove(snapshot);
    if (owned != null) {
      for (String object : owned) {
        if (refCounts.merge(object, -1, Integer::sum) == 0) {
          refCounts.remove(object);
          pendingDeletes.add(object);
        }
      }
    }
    List<String> deleted = new ArrayList<>();
    for (Iterator<String> it = pendingDeletes.iterator(); it.hasNext(); ) {
      String object = it.next();
      try {
        store.delete(object);
        it.remove();
        deleted.add(object);
      } catch (IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "Could not delete unreferenced heap state object {0} from {1}; "
            + "will retry: {2}", object, store.url(), e.toString());
      }
    }
    return deleted;
  }

  /** How many retained snapshots reference {@code object}. */
  synchronized int referenceCount(String object) {
    return refCounts.getOrDefault(object, 0);
  }

  /** Unreferenced objects whose deletion has not succeeded yet. */
  synchronized Set<String> pendingDeletes() {
    return Set.copyOf(pendingDeletes);
  }
}
