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
 */
public record ForstMetrics(long bytesUploaded, long bytesDownloaded, long shardsOpened, long cacheHits,
    long cacheMisses, long shardOpenNanos, long cacheEvictions, long cachedBytes, long bytesWritten) {

  /** One line for progress reports. */
  public String describe() {
    return String.format("shards opened %,d, uploaded %,d B, downloaded %,d B, file cache %,d hits / %,d misses"
        + " / %,d evictions, %,d B cached", shardsOpened, bytesUploaded, bytesDownloaded, cacheHits, cacheMisses,
        cacheEvictions, cachedBytes);
  }
}
