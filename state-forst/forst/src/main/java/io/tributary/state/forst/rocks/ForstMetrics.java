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
 */
public record ForstMetrics(long bytesUploaded, long bytesDownloaded, long shardsOpened, long cacheHits,
    long cacheMisses, long shardOpenNanos) {}
