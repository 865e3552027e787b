package io.tributary.state.forst.rocks;

/**
 * A reading of the backend's counters for one process.
 *
 * @param bytesUploaded bytes written to the object store by snapshots (new files only)
 * @param bytesDownloaded bytes fetched from the object store by restores (through the file cache)
 * @param shardsOpened key-group shards opened, restored or new
 * @param cacheHits file-cache acquisitions served locally
 * @param cacheMisses file-cache acquisitions that downloaded
 * @param shardOpenNanos time spent opening those shards, fetching restored files included
 * @param cacheEvictions files the file cache evicted to stay within its disk budget
 * @param cachedBytes bytes the file cache holds now
 * @param bytesWritten bytes of keys and values written into the shards, counted when each backend
 *     snapshots (what the snapshots' uploads compare with)
 * @param stateCacheHits reads of state the write-back cache of deserialized entries answered
 *     (counted in batches, so a running backend's last few are missing)
 * @param stateCacheMisses reads of state that went below that cache, to RocksDB
 * @param blockCacheHits reads of RocksDB data blocks the block cache served
 * @param blockCacheMisses reads of RocksDB data blocks from files
 */
public record ForstMetrics(long bytesUploaded, long bytesDownloaded, long shardsOpened, long cacheHits,
    long cacheMisses, long shardOpenNanos, long cacheEvictions, long cachedBytes, long bytesWritten,
    long stateCacheHits, long stateCacheMisses, long blockCacheHits, long blockCacheMisses) {

  /** One line for progress reports. */
  public String describe() {
    return String.format("shards opened %,d, uploaded %,d B, downloaded %,d B, file cache %,d hits / %,d misses"
        + " / %,d evictions, %,d B cached", shardsOpened, bytesUploaded, bytesDownloaded, cacheHits, cacheMisses,
        cacheEvictions, cachedBytes);
  }

  /** The state cache's and the block cache's hit rates, as one line. */
  public String describeCaches() {
    return String.format("state cache %s of %,d reads, block cache %s of %,d data block reads",
        percent(stateCacheHits, stateCacheMisses), stateCacheHits + stateCacheMisses,
        percent(blockCacheHits, blockCacheMisses), blockCacheHits + blockCacheMisses);
  }

  private static String percent(long hits, long misses) {
    return hits + misses == 0 ? "-" : String.format("%.1f%% hits", 100.0 * hits / (hits + misses));
  }
}
