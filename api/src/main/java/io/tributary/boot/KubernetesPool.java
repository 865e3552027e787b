package io.tributary.boot;

import io.tributary.worker.kubernetes.KubernetesWorkers;
import io.tributary.worker.remote.RemoteWorkerPool;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code server --workers kubernetes:N}: the {@link KubernetesWorkers} of a {@link RemoteWorkerPool},
 * from the {@code tributary.workers.kubernetes.*} keys of the server's configuration (file or
 * environment):
 * <ul>
 *   <li>{@code image} (required): the image whose entrypoint is the {@code tributary} CLI (the one
 *       {@code infra/image} builds); {@code image-pull-policy} (default: the cluster's);
 *   <li>{@code namespace} (default: the client's, in a pod its own), {@code service-account} (default:
 *       the namespace's default);
 *   <li>{@code secret-name}, {@code secret-key} (default {@code tributary-secrets}, {@code
 *       cluster-secret}): the Secret the pods take {@code TRIBUTARY_CLUSTER_SECRET} from;
 *   <li>{@code cpu-per-slot}, {@code memory-per-slot} (default {@code 500m}, {@code 768Mi}): requests
 *       (and the memory limit) are these times {@code --worker-slots};
 *   <li>{@code data-port} (default 7078);
 *   <li>{@code control-plane} ({@code host} or {@code host:port}; default this host's address and the
 *       worker port): where the pods register;
 *   <li>{@code server-id} (default this host's name, in a pod the pod's): the pool's
 *       {@code tributary.io/server} label; at start the pods under it that a previous instance left
 *       are deleted, so it must differ between replicas;
 *   <li>{@code owner-pod}: the pod (the server's own, by name) whose deletion deletes the workers';
 *   <li>{@code labels}: more pod labels, {@code k=v,k2=v2}.
 * </ul>
 * The workers' JVM options are {@code TRIBUTARY_WORKER_JAVA_OPTS} (default {@code
 * -XX:MaxRAMPercentage=70}, the heap following the memory limit); they get the S3 settings.
 */
final class KubernetesPool {
  private KubernetesPool() {}

  /**
   * Starts the pool's pods.
   *
   * @throws IllegalArgumentException naming the setting that is missing or wrong
   */
  static KubernetesWorkers start(RemoteWorkerPool pool, WorkersOption workers, ServerConfiguration config) {
    return KubernetesWorkers.start(pool, settings(pool.port(), workers, config, System.getenv()));
  }

  /** The pods' settings for a pool on worker port {@code port}. */
  static KubernetesWorkers.Settings settings(int port, WorkersOption workers, ServerConfiguration config,
      Map<String, String> env) {
    Map<String, String> c = config.workerPods();
    String image = c.get("image");
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException("--workers kubernetes needs the workers' image: set "
          + key("image") + " (" + ServerConfiguration.envName(key("image")) + ")");
    }
    String controlPlane = c.getOrDefault("control-plane", localAddress());
    if (!controlPlane.contains(":")) {
      controlPlane = controlPlane + ":" + port;
    }
    String javaOptions = workers.javaOptions() != null ? workers.javaOptions()
        : env.getOrDefault("TRIBUTARY_WORKER_JAVA_OPTS", KubernetesWorkers.Settings.DEFAULT_JAVA_OPTS);
    try {
      return new KubernetesWorkers.Settings(c.get("namespace"), c.getOrDefault("server-id", serverId()),
          workers.count(), workers.slots(), image, c.get("image-pull-policy"), c.get("service-account"), controlPlane,
          c.getOrDefault("secret-name", KubernetesWorkers.Settings.DEFAULT_SECRET_NAME),
          c.getOrDefault("secret-key", KubernetesWorkers.Settings.DEFAULT_SECRET_KEY),
          c.getOrDefault("cpu-per-slot", KubernetesWorkers.Settings.DEFAULT_CPU_PER_SLOT),
          c.getOrDefault("memory-per-slot", KubernetesWorkers.Settings.DEFAULT_MEMORY_PER_SLOT),
          Integer.parseInt(c.getOrDefault("data-port", String.valueOf(KubernetesWorkers.Settings.DEFAULT_DATA_PORT))),
          javaOptions, config.s3(), labels(c.getOrDefault("labels", "")), c.get("owner-pod"), Duration.ofSeconds(5));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--workers kubernetes (" + ServerConfiguration.WORKER_PODS + "*): "
          + e.getMessage(), e);
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
  private static String serverId() {
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
