package io.tributary.state.forst.rocks;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.StringAppendOperator;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * Native RocksDB objects shared by every shard of a process: one block cache and one memtable
 * budget (so memory does not grow with the number of open shards), the options every shard opens
 * with, and the read/write options of the hot path. The WAL is disabled: durability comes from
 * snapshots in the object store, the local disk is only a cache (contract C5).
 */
final class RocksResources implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final LRUCache blockCache;
  private final WriteBufferManager writeBuffers;
  private final StringAppendOperator append = new StringAppendOperator("");
  private final BloomFilter bloom = new BloomFilter(10);
  /** Counters of every shard (the block cache's data hits and misses); tickers cost a few atomic adds per read. */
  private final Statistics statistics = new Statistics();
  /** The counters' last values once closed (-1 while open); guarded by this. */
  private long closedHits = -1;
  private long closedMisses = -1;
  private final Options options = new Options();
  /** What to tell of each completed flush, by the directory of the shard it belongs to. */
  private final java.util.concurrent.ConcurrentHashMap<String, java.util.function.LongConsumer> flushWatchers =
      new java.util.concurrent.ConcurrentHashMap<>();
  /** Tells a shard's watcher the largest sequence number in each flush's file, once it is installed. */
  private final org.rocksdb.AbstractEventListener flushListener = new org.rocksdb.AbstractEventListener(
      org.rocksdb.AbstractEventListener.EnabledEventCallback.ON_FLUSH_COMPLETED) {
    @Override
    public void onFlushCompleted(RocksDB db, org.rocksdb.FlushJobInfo info) {
      String file = info.getFilePath();
      int slash = file.lastIndexOf('/');
      java.util.function.LongConsumer watcher = slash < 0 ? null : flushWatchers.get(file.substring(0, slash));
      if (watcher != null) {
        watcher.accept(info.getLargestSeqno());
      }
    }
  };
  private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
  private final ReadOptions readOptions = new ReadOptions();
  /**
   * Starts a flush and returns at once (a materialization's cut, {@link Shard#cut}): the memtable
   * becomes immutable, later writes go to a new one; never waits for a write stall to clear.
   */
  private final FlushOptions flushOptions = new FlushOptions().setWaitForFlush(false).setAllowWriteStall(true);

  RocksResources(long blockCacheBytes, long writeBufferBytes) {
    blockCache = new LRUCache(blockCacheBytes);
    writeBuffers = new WriteBufferManager(writeBufferBytes, blockCache);
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(blockCache)
        .setFilterPolicy(bloom)
        .setBlockSize(16 << 10)
        .setCacheIndexAndFilterBlocks(true)
        .setPinL0FilterAndIndexBlocksInCache(true);
    statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
    options.setCreateIfMissing(true)
        .setStatistics(statistics)
        .setWriteBufferManager(writeBuffers)
        .setWriteBufferSize(Math.max(1 << 20, Math.min(32L << 20, writeBufferBytes / 8)))
        // small arena blocks: the shared budget counts allocated blocks, and there are many shards
        .setArenaBlockSize(256 << 10)
        .setTargetFileSizeBase(16L << 20)
        .setMaxBytesForLevelBase(64L << 20)
        .setLevel0FileNumCompactionTrigger(8)
        .setLevel0SlowdownWritesTrigger(24)
        .setLevel0StopWritesTrigger(40)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setMergeOperator(append)
        .setTableFormatConfig(table)
        .setMaxOpenFiles(256)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        .setKeepLogFileNum(1)
        .setStatsDumpPeriodSec(0)
        .setMaxManifestFileSize(1L << 20)
        // opening a shard is on the task thread: write and check as little as possible (C5: the
        // local files are a cache, so there is nothing to verify or keep statistics of across opens)
        .setManifestPreallocationSize(64 << 10)
        .setSkipStatsUpdateOnDbOpen(true)
        .setSkipCheckingSstFileSizesOnDbOpen(true)
        .setStatsPersistPeriodSec(0)
        .setAvoidUnnecessaryBlockingIO(true)
        // closing a shard must not flush its memtable: the directory is deleted right after (C5)
        .setAvoidFlushDuringShutdown(true)
        .setMaxBackgroundJobs(2)
        .setListeners(java.util.List.of(flushListener));
    // a snapshot starts flushing many shards at once (Shard#cut), and the task thread goes on while
    // they run: as many flush threads as cores, and every background thread below the task threads
    // in CPU priority, so that a checkpoint's flushes and the compactions after it slow the task's
    // next records less (the synchronous part of a checkpoint of 1 GiB under a write-heavy load
    // fell from about 0.45 to 0.2 s, mostly by this)
    org.rocksdb.Env env = org.rocksdb.Env.getDefault();
    env.setBackgroundThreads(FLUSH_THREADS, org.rocksdb.Priority.HIGH);
    env.lowerThreadPoolCPUPriority(org.rocksdb.Priority.HIGH);
    env.lowerThreadPoolCPUPriority(org.rocksdb.Priority.LOW);
  }

  /** Threads of the process's RocksDB flush pool. */
  static final int FLUSH_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  Options options() {
    return options;
  }

  /**
   * Tells {@code watcher}, on a RocksDB thread, the largest sequence number written by each flush of
   * the database in {@code dir} (as given to {@link RocksDB#open}) from now until {@link #unwatchFlushes}.
   */
  void watchFlushes(String dir, java.util.function.LongConsumer watcher) {
    flushWatchers.put(dir, watcher);
  }

  void unwatchFlushes(String dir) {
    flushWatchers.remove(dir);
  }

  WriteOptions writeOptions() {
    return writeOptions;
  }

  ReadOptions readOptions() {
    return readOptions;
  }

  FlushOptions flushOptions() {
    return flushOptions;
  }

  /** Reads of data blocks the block cache served. */
  synchronized long blockCacheDataHits() {
    return closedHits >= 0 ? closedHits : statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_HIT);
  }

  /** Reads of data blocks the block cache did not hold (read from a file). */
  synchronized long blockCacheDataMisses() {
    return closedMisses >= 0 ? closedMisses : statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
  }

  /** Closes the native objects; every shard opened with them must be closed first. */
  @Override
  public void close() {
    synchronized (this) {
      closedHits = statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_HIT);
      closedMisses = statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
    }
    flushOptions.close();
    readOptions.close();
    writeOptions.close();
    options.close();
    flushListener.close();
    statistics.close();
    bloom.close();
    append.close();
    writeBuffers.close();
    blockCache.close();
  }
}
