package io.tributary.boot;

import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.store.ObjectStore;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.state.StateBackends;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code tributary run} runs one job on in this process: the state backends, and with
 * checkpoints the checkpoint storage (a directory or {@code s3://bucket/prefix}) and the metadata
 * store of its pointers ({@code DIR/_metadata} for a directory, else {@code $TRIBUTARY_METADATA_DIR}
 * or {@code data/metadata}).
 */
public final class RunEnvironment implements AutoCloseable {
  private final StateBackends state;
  private final ObjectStore objects;
  private final MetadataStore metadata;

  private RunEnvironment(StateBackends state, ObjectStore objects, MetadataStore metadata) {
    this.state = state;
    this.objects = objects;
    this.metadata = metadata;
  }

  /** Heap and forst state configured from the environment; no checkpoints. */
  public static RunEnvironment withoutCheckpoints() {
    return new RunEnvironment(new StateBackends(), null, null);
  }

  /** Checkpoints in {@code dir} (a directory, created if missing, or an object store URL). */
  public static RunEnvironment withCheckpoints(String dir) {
    boolean local = !dir.contains("://");
    if (local) {
      try {
        Files.createDirectories(Path.of(dir));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create the checkpoint directory " + dir + ": " + e.getMessage(), e);
      }
    }
    Path metadataDir = local ? Path.of(dir, "_metadata")
        : Path.of(System.getenv().getOrDefault(EmbeddedMetadataStore.DIR_ENV, "data/metadata"));
    ObjectStore objects = ObjectStores.open(dir);
    if (!local) {
      try {
        objects.list("_tributary-probe/"); // a list reaches the bucket itself: fail now, not at every checkpoint
      } catch (IOException | RuntimeException e) {
        objects.close();
        throw new StoreUnreachableException("checkpoint store " + dir + " cannot be reached: "
            + StoreUnreachableException.reason(e), e);
      }
    }
    MetadataStore metadata;
    try {
      metadata = new EmbeddedMetadataStore(metadataDir);
    } catch (RuntimeException e) {
      objects.close();
      throw e;
    }
    return new RunEnvironment(new StateBackends(objects, dir), objects, metadata);
  }

  /** The checkpoints of job {@code job}; null without checkpoints. */
  public CheckpointStore checkpoints(String job) {
    return objects == null ? null : new CheckpointStore(job, objects, metadata);
  }

  /** A run of {@code settings.plan()} on in-process workers (with checkpoints if this environment has them). */
  public LocalRun run(JobMaster.Settings settings, JobMaster.Events events) {
    return LocalRun.create(settings, InProcessWorkerPool.Options.of(state.factories()),
        checkpoints(settings.plan().jobName()), events);
  }

  /** One line of the forst backend's counters, if a job of this process used it. */
  public Optional<String> stateCounters() {
    return state.forstMetrics().map(m -> m.describe());
  }

  @Override
  public void close() {
    state.close();
    if (metadata != null) {
      metadata.close();
    }
    if (objects != null) {
      objects.close();
    }
  }
}
