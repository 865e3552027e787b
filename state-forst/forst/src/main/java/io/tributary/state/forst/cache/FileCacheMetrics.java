package io.tributary.state.forst.cache;

/**
 * A point-in-time reading of a {@link FileCache}'s counters.
 *
 * @param hits acquisitions served from a local file
 * @param misses acquisitions that downloaded (including re-downloads after the directory was wiped)
 * @param evictions files deleted to respect the limit
 * @param cachedBytes bytes the cache currently accounts for
 * @param cachedFiles files the cache currently accounts for
 * @param bytesDownloaded bytes fetched from the object store
 */
public record FileCacheMetrics(long hits, long misses, long evictions, long cachedBytes, int cachedFiles,
    long bytesDownloaded) {}
