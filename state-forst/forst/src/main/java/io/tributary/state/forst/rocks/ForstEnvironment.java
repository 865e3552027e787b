package io.tributary.state.forst.rocks;

import io.tributary.state.forst.cache.FileCache;
import io.tributary.state.forst.cache.FileCacheMetrics;
import io.tributary.state.forst.registry.SharedFileRegistry;
import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the backends of one process share: native RocksDB resources, the object store, the
 * local file cache, the shared-file registry, the transfer threads and the counters.
 */
final class ForstEnvironment implements AutoCloseable {
  private static final int TRANSFER_THREADS = 4;

  final ForstConfig config;
  final ObjectStore store;
  final RocksResources rocks;
  final FileCache cache;
  final SharedFileRegistry registry;
  final ExecutorService transfers;
  /**
   * Fetches the files of a shard that a task waits for right now ({@link ShardRestorer#open} when
   * urgent), so they never queue behind the prefetch of other key groups on {@link #transfers}.
   * Grows with demand: at most one urgent opening per task at a time.
   */
  final ExecutorService urgentTransfers;
  /**
   * The shards' work off the task thread: taking the files of a snapshot's materializations once
   * their flushes end ({@link Shard#cut}), the local checkpoints the task thread waits for (after a
   * failed cut; each is a few fsyncs, so many in flight finish far sooner than one after another),
   * opening and closing shards.
   */
  final ExecutorService shardCheckpoints;
  static final int SHARD_CHECKPOINT_THREADS = 16;
  /**
   * Lists shards' keys for their new filters ({@link Shard}), one shard at a time: a listing reads
   * the whole shard, all CPU when its files are cached, and the shards of a backend fill their
   * filters at about the same time; listed 16 at once (on {@link #shardCheckpoints}), they took
   * most of two cores from the task threads, whose checkpoints' synchronous parts then took 0.3–0.5
   * s instead of about 0.1 s.
   */
  final ExecutorService keyListings;
  /** The thread of the {@link #applier}. */
  private final ExecutorService applyThread;
  /**
   * Applies the shards' held writes to RocksDB and starts their cuts' flushes, off the task threads
   * ({@link Shard}), on one thread: a second one only added smaller memtable flushes.
   */
  final Applier applier;
  final LongAdder bytesUploaded = new LongAdder();
  /** Bytes of keys and values written into the shards, counted at each snapshot. */
  final LongAdder bytesWritten = new LongAdder();
  /** Reads the backends' state caches answered and did not (published by each in batches). */
  final LongAdder stateCacheHits = new LongAdder();
  final LongAdder stateCacheMisses = new LongAdder();
  final LongAdder shardsOpened = new LongAdder();
  /** Bytes of change-log segments read by range, outside the file cache. */
  final LongAdder logBytesRead = new LongAdder();
  final LongAdder shardOpenNanos = new LongAdder();

  ForstEnvironment(ForstConfig config) {
    this.config = config;
    this.store = config.objectStore();
    try {
      Files.createDirectories(config.localDir());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create local state directory " + config.localDir(), e);
    }
    this.rocks = new RocksResources(config.blockCacheBytes(), config.writeBufferBytes());
    this.cache = new FileCache(config.localDir().resolve("cache"), store, config.cacheBudgetBytes());
    this.registry = new SharedFileRegistry(store);
    AtomicInteger n = new AtomicInteger();
    this.transfers = Executors.newFixedThreadPool(TRANSFER_THREADS, r -> {
      Thread t = new Thread(r, "forst-transfer-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    AtomicInteger u = new AtomicInteger();
    this.urgentTransfers = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "forst-urgent-transfer-" + u.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.keyListings = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "forst-key-listing");
      t.setDaemon(true);
      return t;
    });
    this.applyThread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "forst-apply");
      t.setDaemon(true);
      return t;
    });
    this.applier = new Applier(applyThread, Applier.BUDGET_BYTES);
    AtomicInteger m = new AtomicInteger();
    this.shardCheckpoints = Executors.newFixedThreadPool(SHARD_CHECKPOINT_THREADS, r -> {
      Thread t = new Thread(r, "forst-checkpoint-" + m.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** Working directory of backends (one subdirectory per backend instance). */
  Path workDir() {
    return config.localDir().resolve("work");
  }

  ForstMetrics metrics() {
    FileCacheMetrics c = cache.metrics();
    return new ForstMetrics(bytesUploaded.sum(), c.bytesDownloaded() + logBytesRead.sum(), shardsOpened.sum(), c.hits(), c.misses(),
        shardOpenNanos.sum(), c.evictions(), c.cachedBytes(), bytesWritten.sum(), stateCacheHits.sum(),
        stateCacheMisses.sum(), rocks.blockCacheDataHits(), rocks.blockCacheDataMisses());
  }

  @Override
  public void close() {
    shardCheckpoints.shutdown();
    keyListings.shutdown();
    applyThread.shutdown();
    transfers.shutdown();
    urgentTransfers.shutdown();
    try {
      // native resources are freed next: nothing may still be opening or checkpointing a shard
      shardCheckpoints.awaitTermination(1, TimeUnit.MINUTES);
      keyListings.awaitTermination(1, TimeUnit.MINUTES);
      applyThread.awaitTermination(1, TimeUnit.MINUTES);
      transfers.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    cache.close();
    rocks.close();
  }
}
