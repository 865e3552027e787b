package io.tributary.boot;

import io.tributary.connectors.ConnectorPolicy;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.state.forst.store.ObjectStores;
import io.tributary.state.store.ObjectStore;
import io.tributary.worker.exchange.InProcessChannel;
import io.tributary.worker.pool.ConnectorSplitEnumerator;
import io.tributary.worker.pool.InProcessWorkerPool;
import io.tributary.worker.remote.LocalProcessWorkers;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.state.StateBackends;
import io.tributary.worker.task.ConnectorFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The embedded control plane's services under one data directory (see {@code docs/design.md},
 * "Embedded default"):
 * <ul>
 *   <li>{@code <data>/metadata}: the {@link EmbeddedMetadataStore} (locked by one process);
 *   <li>{@code <data>/checkpoints}: the object store of checkpoints, savepoints and state files;
 *   <li>{@code <data>/local/control}: the forst backend's working directories and file caches
 *       (one per process, contract C5: a cache), wiped on open;
 *   <li>workers: an {@link InProcessWorkerPool} in this process, or worker processes
 *       ({@link WorkersOption}) registering at a {@link RemoteWorkerPool}: started and supervised here
 *       ({@code local:N}, their caches under {@code <data>/local/workers}, logs under
 *       {@code <data>/logs/workers}) or by someone else ({@code external}).
 * </ul>
 * The forst backend starts on the first job that asks for it.
 */
public final class EmbeddedServices {
  private EmbeddedServices() {}

  /**
   * The control plane over {@code dataDir}, with in-process workers using the built-in connectors,
   * which reach only the file directories and endpoints of the settings' policy (checked again as
   * they open files and build clients).
   */
  public static JobManager controlPlane(Path dataDir, JobManager.Settings settings) {
    ConnectorPolicy policy = new ConnectorPolicy(settings.policy().files(), settings.policy().endpoints());
    return controlPlane(dataDir, ConnectorFactory.standard(policy), settings);
  }

  /**
   * The control plane over {@code dataDir}, its jobs running on {@code workers}, whose connectors
   * reach only what the settings' policy allows (each worker is told as it registers).
   */
  public static JobManager controlPlane(Path dataDir, JobManager.Settings settings, WorkersOption workers,
      ClusterSecret secret) {
    ConnectorPolicy policy = new ConnectorPolicy(settings.policy().files(), settings.policy().endpoints());
    return JobManager.open(settings, open(dataDir, ConnectorFactory.standard(policy), policy, workers, secret));
  }

  /**
   * The control plane over {@code dataDir}, with in-process workers using {@code connectors}.
   *
   * @throws io.tributary.scheduler.metadata.MetadataStoreException if another process holds the
   *     directory
   */
  public static JobManager controlPlane(Path dataDir, ConnectorFactory connectors, JobManager.Settings settings) {
    return JobManager.open(settings, open(dataDir, connectors));
  }

  /** The services over {@code dataDir}; closing them closes the pool, the state backends and the stores. */
  public static ControlPlaneServices open(Path dataDir, ConnectorFactory connectors) {
    return open(dataDir, connectors, ConnectorPolicy.unrestricted(), WorkersOption.IN_PROCESS, null);
  }

  /**
   * The services over {@code dataDir} with the workers {@code workers} names; for worker processes,
   * {@code secret} is what they must prove they know and {@code access} what their connectors may
   * reach ({@code connectors} are the in-process workers' and the split enumerator's).
   */
  public static ControlPlaneServices open(Path dataDir, ConnectorFactory connectors, ConnectorPolicy access,
      WorkersOption workers, ClusterSecret secret) {
    Path checkpoints = dataDir.resolve("checkpoints");
    Path local = dataDir.resolve("local").resolve("control");
    MetadataStore metadata = new EmbeddedMetadataStore(dataDir.resolve("metadata"));
    try {
      Files.createDirectories(checkpoints);
      deleteRecursively(local);
      Files.createDirectories(local);
    } catch (IOException e) {
      metadata.close();
      throw new UncheckedIOException("cannot prepare the data directory " + dataDir + ": " + e.getMessage(), e);
    }
    ObjectStore objects = ObjectStores.open(checkpoints.toString());
    StateBackends state = new StateBackends(objects, local);
    if (workers.kind() == WorkersOption.Kind.IN_PROCESS) {
      InProcessWorkerPool pool = new InProcessWorkerPool(new InProcessWorkerPool.Options(state.factories(),
          connectors, InProcessChannel.DEFAULT_CREDITS, objects), workers.metricsInterval());
      return new ControlPlaneServices(metadata, objects, state.factories(), pool,
          new ConnectorSplitEnumerator(connectors), () -> {
            pool.close();
            state.close();
            objects.close();
            metadata.close();
          });
    }
    RemoteWorkerPool pool;
    LocalProcessWorkers processes = null;
    try {
      pool = new RemoteWorkerPool(RemoteWorkerPool.Settings.of(secret.value(), checkpoints.toAbsolutePath().toString())
          .withPort(workers.bindHost(), workers.port()).withHeartbeatTimeout(workers.heartbeatTimeout())
          .withAccess(access).withMetricsInterval(workers.metricsInterval()));
      if (workers.kind() == WorkersOption.Kind.LOCAL) {
        processes = new LocalProcessWorkers(pool, new LocalProcessWorkers.Settings(workers.count(), workers.slots(),
            WorkerCommands.thisJvm(workers.javaOptions()), dataDir.resolve("local").resolve("workers"),
            dataDir.resolve("logs").resolve("workers"), Map.of(ClusterSecret.ENV, secret.value())));
      }
    } catch (RuntimeException e) {
      state.close();
      objects.close();
      metadata.close();
      throw e;
    }
    LocalProcessWorkers started = processes;
    RemoteWorkerPool remote = pool;
    return new ControlPlaneServices(metadata, objects, state.factories(), remote,
        new ConnectorSplitEnumerator(connectors), true, () -> {
          remote.close();
          if (started != null) {
            started.close();
          }
          state.close();
          objects.close();
          metadata.close();
        });
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
