package io.tributary.boot;

import io.tributary.worker.kubernetes.KubernetesWorkers;
import io.tributary.worker.kubernetes.WorkerPodSettings;
import io.tributary.worker.remote.RemoteWorkerPool;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code server --workers kubernetes[:N]}: the {@link KubernetesWorkers} of a {@link RemoteWorkerPool},
 * worker pods per attempt of a job (at most N at once; of up to {@code --worker-slots} slots each), from
 * the {@code tributary.workers.kubernetes.*} keys of the server's configuration (file or environment):
 * <ul>
 *   <li>{@code image} (required): the image whose entrypoint is the {@code tributary} CLI (the one
 *       {@code infra/image} builds); {@code image-pull-policy} (default: the cluster's);
 *   <li>{@code namespace} (default: the client's, in a pod its own), {@code service-account} (default:
 *       the namespace's default);
 *   <li>{@code secret-name}, {@code secret-key} (default {@code tributary-secrets}, {@code
 *       cluster-secret}): the Secret the pods take {@code TRIBUTARY_CLUSTER_SECRET} from;
 *   <li>{@code cpu-per-slot}, {@code memory-per-slot} (default {@code 500m}, {@code 768Mi}): a pod's
 *       requests (and memory limit) are these times its slots;
 *   <li>{@code data-port} (default 7078);
 *   <li>{@code control-plane} ({@code host}, {@code host:port}, or several {@code host:port}
 *       comma-separated; default this host's address and the worker port): where the pods register;
 *       with several replicas, one that reaches every replica (a Service), so that the next leader finds
 *       them;
 *   <li>{@code owner-deployment}: the Deployment (the server's, by name) that owns the pods, which the
 *       cluster deletes with it (default: none);
 *   <li>{@code pool-id} (default: the owner Deployment's name, else this host's name): the pods'
 *       {@code tributary.io/pool} label, the same on every replica of one control plane;
 *   <li>{@code labels}: more pod labels, {@code k=v,k2=v2}.
 * </ul>
 * The retired {@code server-id} and {@code owner-pod} are refused, naming what replaced them. The
 * workers' JVM options are {@code TRIBUTARY_WORKER_JAVA_OPTS} (default {@code -XX:MaxRAMPercentage=70},
 * the heap following the memory limit); they get the S3 settings.
 */
final class KubernetesPool {
  private KubernetesPool() {}

  /**
   * Starts watching the pool's pods, the pool's capacity from now on.
   *
   * @throws IllegalArgumentException naming the setting that is missing or wrong, or saying why the
   *     Kubernetes API it points at cannot be reached or refuses (the server's configuration to fix)
   */
  static KubernetesWorkers start(RemoteWorkerPool pool, WorkersOption workers, ServerConfiguration config) {
    WorkerPodSettings settings = settings(pool.port(), workers, config, System.getenv());
    try {
      return KubernetesWorkers.start(pool, settings);
    } catch (KubernetesWorkers.KubernetesUnavailableException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The pods' settings for a pool on worker port {@code port}. */
  static WorkerPodSettings settings(int port, WorkersOption workers, ServerConfiguration config,
      Map<String, String> env) {
    Map<String, String> c = config.workerPods();
    refuseRetired(c);
    String image = c.get("image");
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException("--workers kubernetes needs the workers' image: set "
          + key("image") + " (" + ServerConfiguration.envName(key("image")) + ")");
    }
    String controlPlane = c.getOrDefault("control-plane", localAddress());
    if (!controlPlane.contains(":") && !controlPlane.contains(",")) {
      controlPlane = controlPlane + ":" + port;
    }
    String javaOptions = workers.javaOptions() != null ? workers.javaOptions()
        : env.getOrDefault("TRIBUTARY_WORKER_JAVA_OPTS", WorkerPodSettings.DEFAULT_JAVA_OPTS);
    String owner = c.get("owner-deployment");
    try {
      return new WorkerPodSettings(c.get("namespace"), c.getOrDefault("pool-id", owner != null ? owner : hostId()),
          workers.count(), workers.slots(), image, c.get("image-pull-policy"), c.get("service-account"), controlPlane,
          c.getOrDefault("secret-name", WorkerPodSettings.DEFAULT_SECRET_NAME),
          c.getOrDefault("secret-key", WorkerPodSettings.DEFAULT_SECRET_KEY),
          c.getOrDefault("cpu-per-slot", WorkerPodSettings.DEFAULT_CPU_PER_SLOT),
          c.getOrDefault("memory-per-slot", WorkerPodSettings.DEFAULT_MEMORY_PER_SLOT),
          Integer.parseInt(c.getOrDefault("data-port", String.valueOf(WorkerPodSettings.DEFAULT_DATA_PORT))),
          javaOptions, config.s3(), labels(c.getOrDefault("labels", "")), owner, Duration.ofSeconds(5),
          WorkerPodSettings.DEFAULT_LEFTOVER_GRACE);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--workers kubernetes (" + ServerConfiguration.WORKER_PODS + "*): "
          + e.getMessage(), e);
    }
  }

  /** The keys of the pool that kept a count of pods per server instance. */
  private static void refuseRetired(Map<String, String> c) {
    if (c.containsKey("server-id")) {
      throw new IllegalArgumentException(key("server-id") + " is no longer read: worker pods belong to the control "
          + "plane, not to one server; set " + key("pool-id") + ", the same on every replica (default: the owner "
          + "Deployment's name)");
    }
    if (c.containsKey("owner-pod")) {
      throw new IllegalArgumentException(key("owner-pod") + " is no longer read: worker pods outlive a server pod, "
          + "so that the next leader takes their jobs over; set " + key("owner-deployment") + " to the server's "
          + "Deployment");
    }
  }

  private static String key(String name) {
    return ServerConfiguration.WORKER_PODS + name;
  }

  private static Map<String, String> labels(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      if (!pair.isBlank()) {
        int eq = pair.indexOf('=');
        out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
      }
    }
    return out;
  }

  private static String localAddress() {
    try {
      return InetAddress.getLocalHost().getHostAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("--workers kubernetes: this host's address is unknown (" + e.getMessage()
          + "); set " + key("control-plane"));
    }
  }

  /** This host's name as a label value. */
  private static String hostId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = System.getenv().getOrDefault("HOSTNAME", "tributary");
    }
    String id = host.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
    if (id.length() > 63) {
      id = id.substring(0, 63);
    }
    return id.replaceAll("^[^a-z0-9]+", "").replaceAll("[^a-z0-9]+$", "");
  }
}
