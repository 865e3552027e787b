package io.tributary.scheduler.lifecycle;

import io.tributary.scheduler.checkpoint.CheckpointStore;
import java.time.Instant;

/**
 * A completed checkpoint or savepoint of a job.
 *
 * @param kind {@code checkpoint} or {@code savepoint}
 * @param path where it lies in checkpoint storage, as {@link io.tributary.scheduler.master.RestorePolicy} accepts
 *     it for a restore: {@code <project>--<name>/savepoints/sp-<id>}
 * @param completedAt when it completed; null if its metadata could not be read
 * @param summary what its entry records (trigger and completion times, duration, alignment, sizes,
 *     bytes uploaded, parallelism; {@link CheckpointStore.Summary}); null for entries written by
 *     older versions, and for a latest checkpoint whose entry is gone; fields added since an entry
 *     was written are null in it
 */
public record CheckpointRef(long id, String kind, String path, Instant completedAt, CheckpointStore.Summary summary) {
  public CheckpointRef(long id, String kind, String path, Instant completedAt) {
    this(id, kind, path, completedAt, null);
  }
}
