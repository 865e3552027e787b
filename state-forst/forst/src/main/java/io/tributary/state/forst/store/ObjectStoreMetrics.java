package io.tributary.state.forst.store;

/**
 * A point-in-time reading of an {@link InstrumentedObjectStore}'s counters.
 *
 * @param puts successful writes ({@code put} and {@code putIfAbsent} that wrote)
 * @param gets successful reads ({@code get}, {@code getBytes}, {@code open})
 * @param deletes successful deletes
 * @param bytesUploaded bytes written by successful writes
 * @param bytesDownloaded bytes read by successful {@code get}/{@code getBytes}; bytes read
 *     through {@code open} streams are counted as they are consumed
 * @param failures operations that threw
 */
public record ObjectStoreMetrics(long puts, long gets, long deletes, long bytesUploaded, long bytesDownloaded,
    long failures) {}
