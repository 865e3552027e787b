package io.tributary.state.forst.rocks;

import io.tributary.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Configuration of the ForSt-style backend of one process.
 *
 * @param objectStore where durable state lives (contract C5); the factory does not close it
 * @param localDir working directory for open shards, snapshot staging and the file cache; it may be
 *     wiped whenever no backend of this process is open
 * @param cacheBudgetBytes disk budget of the local file cache of downloaded state files
 * @param blockCacheBytes RocksDB block cache shared by every shard of the process
 * @param writeBufferBytes memtable budget shared by every shard of the process
 * @param stateCacheEntries bound of each backend's write-back cache of deserialized state entries
 *     in front of RocksDB, in (state, key, namespace) entries; 0 disables the cache
 * @param prefetchOnRestore whether a restored backend starts opening (downloading) all its key
 *     groups in the background right away, instead of each on its first access; restore returns at
 *     once either way (C7), and a first access waits only for its own key group. Off by default
 *     (a restore reads only what is used); on for running jobs, whose windows touch every key group
 *     within their first records
 * @param changeLog whether snapshots upload each changed shard's log of writes since the previous
 *     snapshot and materialize (flush and checkpoint RocksDB) only a few shards at a time, when their
 *     logs grow long; on by default. Off: every snapshot materializes every changed shard
 * @param timersInState whether backends keep event-time timers in their shards ({@link
 *     ForstTimerQueue}); on by default. Off: {@code timerQueue} returns null and the caller keeps
 *     timers on the heap, as before there were forst timers (for comparison). Heap timers of a
 *     checkpoint move into the backend when it is restored with the setting on; timers in the
 *     backend are not seen with it off: do not restore such a checkpoint so
 */
public record ForstConfig(ObjectStore objectStore, Path localDir, long cacheBudgetBytes, long blockCacheBytes,
    long writeBufferBytes, long stateCacheEntries, boolean prefetchOnRestore, boolean changeLog,
    boolean timersInState) {
  /** Default local file cache budget: 8 GiB. */
  public static final long DEFAULT_CACHE_BUDGET = 8L << 30;
  /** Default block cache: 256 MiB. */
  public static final long DEFAULT_BLOCK_CACHE = 256L << 20;
  /** Default memtable budget: 128 MiB. */
  public static final long DEFAULT_WRITE_BUFFER = 128L << 20;
  /** Default state cache bound per backend instance: 100,000 entries (some 10-30 MB of objects). */
  public static final long DEFAULT_STATE_CACHE_ENTRIES = 100_000;

  public ForstConfig {
    Objects.requireNonNull(objectStore, "objectStore");
    Objects.requireNonNull(localDir, "localDir");
    requirePositive("cacheBudgetBytes", cacheBudgetBytes);
    requirePositive("blockCacheBytes", blockCacheBytes);
    requirePositive("writeBufferBytes", writeBufferBytes);
    if (stateCacheEntries < 0) {
      throw new IllegalArgumentException("stateCacheEntries must be >= 0, got " + stateCacheEntries);
    }
  }

  /** Without prefetching on restore, with the change log. */
  public ForstConfig(ObjectStore objectStore, Path localDir, long cacheBudgetBytes, long blockCacheBytes,
      long writeBufferBytes, long stateCacheEntries) {
    this(objectStore, localDir, cacheBudgetBytes, blockCacheBytes, writeBufferBytes, stateCacheEntries, false, true, true);
  }

  /** This configuration with prefetching on restore switched on or off. */
  public ForstConfig withPrefetchOnRestore(boolean prefetch) {
    return new ForstConfig(objectStore, localDir, cacheBudgetBytes, blockCacheBytes, writeBufferBytes,
        stateCacheEntries, prefetch, changeLog, timersInState);
  }

  /** This configuration with the change log switched on or off. */
  public ForstConfig withChangeLog(boolean log) {
    return new ForstConfig(objectStore, localDir, cacheBudgetBytes, blockCacheBytes, writeBufferBytes,
        stateCacheEntries, prefetchOnRestore, log, timersInState);
  }

  /** This configuration with timers kept in the backend's shards, or not (then on the caller's heap). */
  public ForstConfig withTimersInState(boolean inState) {
    return new ForstConfig(objectStore, localDir, cacheBudgetBytes, blockCacheBytes, writeBufferBytes,
        stateCacheEntries, prefetchOnRestore, changeLog, inState);
  }

  /** A configuration with the default state cache bound. */
  public ForstConfig(ObjectStore objectStore, Path localDir, long cacheBudgetBytes, long blockCacheBytes,
      long writeBufferBytes) {
    this(objectStore, localDir, cacheBudgetBytes, blockCacheBytes, writeBufferBytes, DEFAULT_STATE_CACHE_ENTRIES);
  }

  /** This configuration with another state cache bound (0 disables the cache). */
  public ForstConfig withStateCacheEntries(long entries) {
    return new ForstConfig(objectStore, localDir, cacheBudgetBytes, blockCacheBytes, writeBufferBytes, entries,
        prefetchOnRestore, changeLog, timersInState);
  }

  /** A configuration with the default budgets. */
  public static ForstConfig defaults(ObjectStore objectStore, Path localDir) {
    return new ForstConfig(objectStore, localDir, DEFAULT_CACHE_BUDGET, DEFAULT_BLOCK_CACHE, DEFAULT_WRITE_BUFFER);
  }

  private static void requirePositive(String what, long v) {
    if (v <= 0) {
      throw new IllegalArgumentException(what + " must be > 0, got " + v);
    }
  }
}
