package io.tributary.run;

import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.RestartPolicy;
import io.tributary.scheduler.master.RestorePolicy;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.checkpoint.CheckpointStore;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.state.StateBackendFactory;
import io.tributary.state.forst.rocks.ForstConfig;
import io.tributary.state.forst.rocks.ForstStateBackendFactory;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.heap.HeapStateBackendFactory;
import io.tributary.state.store.ObjectStore;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Checkpoint storage in a local directory as a process has it: object store, metadata store and
 * the heap and forst state backends writing into it. One per simulated process; close it before
 * another opens the same directory.
 */
final class CheckpointDir implements AutoCloseable {
  private final ObjectStore objects;
  private final EmbeddedMetadataStore metadata;
  private final HeapStateBackendFactory heap;
  private final ForstStateBackendFactory forst;

  CheckpointDir(Path dir) {
    try {
      Files.createDirectories(dir.resolve("objects"));
      Files.createDirectories(dir.resolve("local"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.objects = ObjectStores.open(dir.resolve("objects").toString());
    this.metadata = new EmbeddedMetadataStore(dir.resolve("metadata"));
    this.heap = new HeapStateBackendFactory(objects);
    this.forst = ForstStateBackendFactory.fromConfig(new ForstConfig(objects, dir.resolve("local"), 1L << 30,
        16L << 20, 8L << 20));
  }

  Map<String, StateBackendFactory> backends() {
    return Map.of(heap.name(), heap, ForstStateBackendFactory.NAME, forst);
  }

  CheckpointStore store(String job) {
    return new CheckpointStore(job, objects, metadata);
  }

  /**
   * A runner of {@code plan} checkpointing every {@code intervalMillis}, restarting quickly after
   * failures. Checkpoints have no timeout: with one, closing a run's coordinator waits up to 10 s for
   * the timeouts still scheduled (a bug, see CheckpointCoordinatorTest), which would add 10 s to every
   * restart and to the end of every run.
   */
  LocalRun runner(ExecutionPlan plan, long intervalMillis, RestorePolicy restore, ConnectorFactory connectors,
      JobMaster.Events events) {
    return runner(settings(plan, intervalMillis, restore), connectors, events);
  }

  /** The settings of {@link #runner(ExecutionPlan, long, RestorePolicy, ConnectorFactory, JobMaster.Events)}. */
  static JobMaster.Settings settings(ExecutionPlan plan, long intervalMillis, RestorePolicy restore) {
    return new JobMaster.Settings(plan, intervalMillis, 3, 0, restore,
        new RestartPolicy(3, Duration.ofMillis(10), Duration.ofMillis(100)));
  }

  /** A runner with {@code settings}. */
  LocalRun runner(JobMaster.Settings settings, ConnectorFactory connectors, JobMaster.Events events) {
    return LocalRun.create(settings, InProcessWorkerPool.Options.of(backends()).withConnectors(connectors),
        store(settings.plan().jobName()), events);
  }

  @Override
  public void close() {
    forst.close();
    heap.close();
    metadata.close();
    objects.close();
  }
}
