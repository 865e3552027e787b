package io.tributary.boot;

import io.tributary.connectors.ConnectorPolicy;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.metadata.EmbeddedMetadataStore;
import io.tributary.scheduler.lifecycle.LeaderLease;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.dynamo.DynamoMetadataStore;
import io.tributary.scheduler.metadata.dynamo.DynamoSettings;
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
    return controlPlane(dataDir, settings, workers, secret, ServerConfiguration.defaults());
  }

  /**
   * The control plane over the stores {@code stores} names (the embedded ones under {@code dataDir}
   * where it names none), its jobs running on {@code workers}. On a shared metadata store it is one
   * replica of several ({@link JobManager#replica}): it runs jobs only once it leads, which it
   * starts contending for with {@link JobManager#contendForLead}.
   *
   * @param secret the workers' cluster secret; null for in-process workers
   * @throws StoreUnreachableException naming the store that cannot be opened or reached, and why
   */
  public static JobManager controlPlane(Path dataDir, JobManager.Settings settings, WorkersOption workers,
      ClusterSecret secret, ServerConfiguration stores) {
    ConnectorPolicy policy = new ConnectorPolicy(settings.policy().files(), settings.policy().endpoints());
    // external workers may reach any replica (one address for all, or each replica's): only the
    // leader takes them in, so that none waits at a follower while the leader lacks slots
    java.util.concurrent.atomic.AtomicReference<JobManager> replica = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.function.BooleanSupplier accepting = !stores.shared() || workers.kind() != WorkersOption.Kind.EXTERNAL
        ? () -> true : () -> {
          JobManager m = replica.get();
          return m != null && m.leadership().leading();
        };
    ControlPlaneServices services = open(dataDir, ConnectorFactory.standard(policy), policy, workers, secret, stores,
        accepting);
    if (!stores.shared()) {
      return JobManager.open(settings, services);
    }
    JobManager m = JobManager.replica(settings, services,
        new LeaderLease(services.metadata(), replicaId(), stores.leaseTime(), settings.clock()));
    replica.set(m);
    return m;
  }

  /** A replica id unique across hosts and restarts: host, process id and a random part. */
  private static String replicaId() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "host";
    }
    return host.replace('@', '_') + "-" + ProcessHandle.current().pid() + "-"
        + Long.toString((new java.security.SecureRandom().nextLong() & 0xffffffffffL) | (1L << 40), 36);
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
    return open(dataDir, connectors, access, workers, secret, ServerConfiguration.defaults());
  }

  /**
   * Like {@link #open(Path, ConnectorFactory, ConnectorPolicy, WorkersOption, ClusterSecret)}, with
   * the metadata store and the object store {@code stores} names (the embedded ones under the data
   * directory where it names none).
   *
   * @throws StoreUnreachableException naming the store that cannot be opened or reached, and why
   */
  public static ControlPlaneServices open(Path dataDir, ConnectorFactory connectors, ConnectorPolicy access,
      WorkersOption workers, ClusterSecret secret, ServerConfiguration stores) {
    return open(dataDir, connectors, access, workers, secret, stores, () -> true);
  }

  /**
   * Like {@link #open(Path, ConnectorFactory, ConnectorPolicy, WorkersOption, ClusterSecret,
   * ServerConfiguration)}; worker processes join only while {@code accepting} says so (see {@link
   * RemoteWorkerPool.Settings#withAccepting}).
   */
  public static ControlPlaneServices open(Path dataDir, ConnectorFactory connectors, ConnectorPolicy access,
      WorkersOption workers, ClusterSecret secret, ServerConfiguration stores,
      java.util.function.BooleanSupplier accepting) {
    String storage = stores.objectStore() != null ? stores.objectStore()
        : dataDir.resolve("checkpoints").toAbsolutePath().toString();
    Path local = dataDir.resolve("local").resolve("control");
    MetadataStore metadata = openMetadata(dataDir, stores);
    ObjectStore objects;
    try {
      deleteRecursively(local);
      Files.createDirectories(local);
      objects = openObjects(storage, stores);
    } catch (IOException e) {
      metadata.close();
      throw new UncheckedIOException("cannot prepare the data directory " + dataDir + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      metadata.close();
      throw e;
    }
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
    RemoteWorkerPool pool = null;
    LocalProcessWorkers processes = null;
    io.tributary.worker.kubernetes.KubernetesWorkers pods = null;
    try {
      RemoteWorkerPool.Settings settings = RemoteWorkerPool.Settings.of(secret.value(), storage)
          .withPort(workers.bindHost(), workers.port()).withHeartbeatTimeout(workers.heartbeatTimeout())
          .withAccess(access).withMetricsInterval(workers.metricsInterval()).withAccepting(accepting);
      // local worker processes end with the control plane; external workers and the Kubernetes pool's pods
      // (which belong to the control plane, every replica of it) outlive it, for the next one to take over
      pool = new RemoteWorkerPool(workers.kind() == WorkersOption.Kind.LOCAL ? settings.withoutReattach() : settings);
      if (workers.kind() == WorkersOption.Kind.LOCAL) {
        int count = workers.count();
        int each = workers.slots();
        pool.ownWorkers(count, each, needed -> "start the server with --workers local:" + ceil(needed, each)
            + " or --worker-slots " + ceil(needed, count) + ", or give the job a lower parallelism");
        processes = new LocalProcessWorkers(pool, new LocalProcessWorkers.Settings(workers.count(), workers.slots(),
            WorkerCommands.thisJvm(workers.javaOptions()), dataDir.resolve("local").resolve("workers"),
            dataDir.resolve("logs").resolve("workers"), workerEnvironment(secret, stores)));
      }
      if (workers.kind() == WorkersOption.Kind.KUBERNETES) {
        pods = KubernetesPool.start(pool, workers, stores);
      }
    } catch (RuntimeException e) {
      if (pool != null) {
        pool.close(); // its worker port
      }
      state.close();
      objects.close();
      metadata.close();
      throw e;
    }
    LocalProcessWorkers started = processes;
    io.tributary.worker.kubernetes.KubernetesWorkers startedPods = pods;
    RemoteWorkerPool remote = pool;
    return new ControlPlaneServices(metadata, objects, state.factories(), remote,
        new ConnectorSplitEnumerator(connectors), true, () -> {
          if (startedPods != null) {
            startedPods.close(); // first: the pool's closing loses its workers, which must not cost them their pods
          }
          remote.close();
          if (started != null) {
            started.close();
          }
          state.close();
          objects.close();
          metadata.close();
        });
  }

  /** What local worker processes need in their environment: the cluster secret, and the S3 settings. */
  private static Map<String, String> workerEnvironment(ClusterSecret secret, ServerConfiguration stores) {
    Map<String, String> env = new java.util.HashMap<>(stores.s3());
    env.put(ClusterSecret.ENV, secret.value());
    return env;
  }

  private static MetadataStore openMetadata(Path dataDir, ServerConfiguration stores) {
    if (stores.dynamo().isEmpty()) {
      return new EmbeddedMetadataStore(dataDir.resolve("metadata"));
    }
    DynamoSettings d = stores.dynamo().get();
    String which = "metadata store: DynamoDB table '" + d.table() + "'"
        + d.endpoint().map(e -> " at " + e).orElse("") + d.region().map(r -> " in " + r).orElse("");
    MetadataStore m = null;
    try {
      m = DynamoMetadataStore.open(d);
      m.get(LeaderLease.KEY);
      return m;
    } catch (RuntimeException e) {
      if (m != null) {
        m.close();
      }
      throw new StoreUnreachableException(which + " cannot be reached: " + StoreUnreachableException.reason(e)
          + (d.createTable() ? "" : " (does the table exist? tributary.metadata.dynamodb.create-table creates it)"), e);
    }
  }

  private static ObjectStore openObjects(String url, ServerConfiguration stores) throws IOException {
    boolean local = !url.contains("://") || url.startsWith("file:");
    if (local && !url.startsWith("file:")) {
      Files.createDirectories(Path.of(url));
    }
    ObjectStore objects;
    try {
      objects = ObjectStores.open(url, name -> stores.s3().getOrDefault(name, System.getenv(name)));
    } catch (RuntimeException e) {
      throw new StoreUnreachableException("object store " + url + ": " + StoreUnreachableException.reason(e), e);
    }
    try {
      objects.list("_tributary-probe/"); // a list reaches the bucket itself (a missing object is no error)
      return objects;
    } catch (IOException | RuntimeException e) {
      objects.close();
      throw new StoreUnreachableException("object store " + url + " cannot be reached: "
          + StoreUnreachableException.reason(e), e);
    }
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

  private static int ceil(int a, int b) {
    return (a + b - 1) / b;
  }
}
