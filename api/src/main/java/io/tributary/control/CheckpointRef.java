package io.tributary.control;

import java.time.Instant;

/**
 * A completed checkpoint or savepoint of a job.
 *
 * @param kind {@code checkpoint} or {@code savepoint}
 * @param path where it lies in checkpoint storage, as {@link io.tributary.run.RestorePolicy} accepts
 *     it for a restore: {@code <project>--<name>/savepoints/sp-<id>}
 * @param completedAt when it completed; null if its metadata could not be read
 */
public record CheckpointRef(long id, String kind, String path, Instant completedAt) {}
