package io.tributary.state.forst.registry;

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
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reference counts of immutable object-store files across retained snapshots (contract C8): no file
 * that a retained snapshot references is ever deleted; files nobody references are deleted through
 * the store, and deletions that fail are retried by the next {@link #release} or {@link #sweep}.
 *
 * <p>Protocol for writing a snapshot, safe against concurrent releases and failures at any point:
 *
 * <ol>
 *   <li>{@link #register} the snapshot's files <em>before</em> uploading anything. From then on none
 *       of them is deleted. The result lists the files that no other snapshot referenced: only those
 *       may be missing from the store and need uploading (C6: the rest are referenced again).
 *   <li>Upload those files (content-derived names, see {@link ContentNames}, make re-uploads
 *       harmless).
 *   <li>If the snapshot fails or is no longer retained, {@link #release} it: its files that nobody
 *       else references are deleted, including half-uploaded ones.
 * </ol>
 *
 * After a restart, {@link #rebuild} from the retained snapshots' metadata and optionally
 * {@link #collectOrphans} files that a crashed process left behind. Deletions happen while holding
 * the registry's lock, so a file cannot be re-registered while it is being deleted. Thread-safe.
 */
public final class SharedFileRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(SharedFileRegistry.class);

  private final ObjectStore store;
  private final Map<String, Set<String>> snapshots = new HashMap<>();
  private final Map<String, Integer> refCounts = new HashMap<>();
  private final Set<String> pendingDeletes = new LinkedHashSet<>();

  /** A registry, empty until something is registered or rebuilt, deleting through {@code store}. */
  public SharedFileRegistry(ObjectStore store) {
    this.store = store;
  }

  /**
   * Records that snapshot {@code snapshotId} references {@code files}. Registering the same snapshot
   * again adds files to it; a file counts once per snapshot.
   *
   * @return the files that no snapshot referenced before this call (the caller must make sure they
   *     are in the store), in the order given
   */
  public synchronized Set<String> register(String snapshotId, Collection<String> files) {
    Set<String> owned = snapshots.computeIfAbsent(snapshotId, id -> new HashSet<>());
    Set<String> fresh = new LinkedHashSet<>();
    for (String file : files) {
      if (owned.add(file) && refCounts.merge(file, 1, Integer::sum) == 1) {
        fresh.add(file);
        pendingDeletes.remove(file);
      }
    }
    return fresh;
  }

  /**
   * Forgets snapshot {@code snapshotId} (unknown ids are ignored) and deletes every file that no
   * retained snapshot references any more, together with earlier failed deletions. Failures are
   * logged and kept for the next attempt, never thrown.
   *
   * @return the files deleted by this call
   */
  public synchronized List<String> release(String snapshotId) {
    Set<String> owned = snapshots.remove(snapshotId);
    if (owned != null) {
      for (String file : owned) {
        if (refCounts.merge(file, -1, Integer::sum) == 0) {
          refCounts.remove(file);
          pendingDeletes.add(file);
        }
      }
    }
    return sweep();
  }

  /**
   * Retries the pending deletions.
   *
   * @return the files deleted by this call
   */
  public synchronized List<String> sweep() {
    List<String> deleted = new ArrayList<>();
    for (Iterator<String> it = pendingDeletes.iterator(); it.hasNext(); ) {
      String file = it.next();
      if (refCounts.containsKey(file)) {
        it.remove(); // defensive: register() already removes re-referenced files
        continue;
      }
      try {
        store.delete(file);
        it.remove();
        deleted.add(file);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not delete unreferenced object {} from {}; will retry: {}", file, store.url(), e.toString());
      }
    }
    return deleted;
  }

  /** Whether a retained snapshot references {@code name}. */
  public synchronized boolean isReferenced(String name) {
    return refCounts.containsKey(name);
  }

  /** How many retained snapshots reference {@code name}. */
  public synchronized int referenceCount(String name) {
    return refCounts.getOrDefault(name, 0);
  }

  /** The retained snapshot ids, sorted. */
  public synchronized Set<String> snapshots() {
    return new TreeSet<>(snapshots.keySet());
  }

  /** Every referenced file, sorted. */
  public synchronized Set<String> referencedFiles() {
    return new TreeSet<>(refCounts.keySet());
  }

  /** Unreferenced files whose deletion has not succeeded yet, sorted. */
  public synchronized Set<String> pendingDeletes() {
    return new TreeSet<>(pendingDeletes);
  }

  /**
   * Replaces everything with the given retained snapshots (after a restart, from checkpoint and
   * savepoint metadata). Deletes nothing; pending deletions of files that are still unreferenced
   * are kept.
   */
  public synchronized void rebuild(Map<String, ? extends Collection<String>> retained) {
    snapshots.clear();
    refCounts.clear();
    retained.forEach(this::register);
  }

  /**
   * Deletes files under {@code prefix} in the store that no retained snapshot references: leftovers
   * of a process that crashed between uploading and releasing. Only call this when no other process
   * writes snapshots under {@code prefix} (files it registered elsewhere are unknown here).
   *
   * @return the files deleted by this call
   * @throws IOException if the store cannot be listed (nothing is deleted then)
   */
  public synchronized List<String> collectOrphans(String prefix) throws IOException {
    for (String file : store.list(prefix)) {
      if (!refCounts.containsKey(file)) {
        pendingDeletes.add(file);
      }
    }
    return sweep();
  }
}
