package io.tributary.worker.kubernetes;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the worker pods of a {@link KubernetesWorkers} pool are, and its limits.
 *
 * @param namespace where the pods run (null: the client's namespace, in a pod its own)
 * @param poolId the pool's id, the value of {@link WorkerPods#POOL_LABEL}: every replica of one control
 *     plane has the same (a new leader takes over the pods of the one before); a label value (up to 63
 *     letters, digits, {@code -_.})
 * @param maxPods the most worker pods the pool runs at once, over all jobs (0: no limit)
 * @param slotsPerPod the most slots of one pod ({@code --worker-slots}): an attempt's slots are
 *     spread evenly over as few pods as hold them
 * @param image the image: the distribution with {@code bin/tributary} as its entrypoint
 * @param imagePullPolicy null for the cluster's default
 * @param serviceAccount the pods' ServiceAccount, or null for the namespace's default
 * @param controlPlane {@code host:port} the workers register at: this server's worker port, or one that
 *     reaches every replica's (a Service) so that a new leader finds them
 * @param secretName the Secret holding the cluster secret
 * @param secretKey its key in that Secret
 * @param cpuPerSlot CPU requested per slot ({@code 500m}, {@code 1})
 * @param memoryPerSlot memory requested (and the limit) per slot ({@code 768Mi})
 * @param dataPort the workers' data port (fixed, for network policies)
 * @param javaOptions the workers' {@code TRIBUTARY_JAVA_OPTS}
 * @param env more environment of the workers (the S3 settings)
 * @param extraLabels more labels of the pods (not the pool's own, {@link WorkerPods#OWN_LABELS})
 * @param ownerDeployment the Deployment (the server's, by name) that owns the pods: the cluster deletes
 *     them with it; null for none
 * @param resync how often the pool reconciles without being told of a change
 * @param leftoverGrace how long a leading pool keeps a pod of an attempt it has no part in before
 *     deleting it: the time the workers of a control plane before it get to register and say what they
 *     still run
 */
public record WorkerPodSettings(String namespace, String poolId, int maxPods, int slotsPerPod, String image,
    String imagePullPolicy, String serviceAccount, String controlPlane, String secretName, String secretKey,
    String cpuPerSlot, String memoryPerSlot, int dataPort, String javaOptions, Map<String, String> env,
    Map<String, String> extraLabels, String ownerDeployment, Duration resync, Duration leftoverGrace) {
  public static final String DEFAULT_SECRET_NAME = "tributary-secrets";
  public static final String DEFAULT_SECRET_KEY = "cluster-secret";
  public static final String DEFAULT_CPU_PER_SLOT = "500m";
  public static final String DEFAULT_MEMORY_PER_SLOT = "768Mi";
  public static final int DEFAULT_DATA_PORT = 7078;
  /** The heap follows the pod's memory limit. */
  public static final String DEFAULT_JAVA_OPTS = "-XX:MaxRAMPercentage=70";
  /** As long as the control plane keeps an attempt nobody took over (its orphan grace). */
  public static final Duration DEFAULT_LEFTOVER_GRACE = Duration.ofSeconds(60);

  private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  public WorkerPodSettings {
    Objects.requireNonNull(poolId, "poolId");
    if (!LABEL_VALUE.matcher(poolId).matches() || poolId.length() > 63) {
      throw new IllegalArgumentException("the pool id '" + poolId + "' is no label value (up to 63 letters, "
          + "digits, '-', '_' or '.', beginning and ending with a letter or digit)");
    }
    if (namespace != null && (!DNS_LABEL.matcher(namespace).matches() || namespace.length() > 63)) {
      throw new IllegalArgumentException("the namespace '" + namespace + "' is no DNS label");
    }
    if (maxPods < 0 || slotsPerPod < 1) {
      throw new IllegalArgumentException("worker pods need a limit of 0 (none) or more and at least 1 slot each");
    }
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException("worker pods need an image");
    }
    if (controlPlane == null || !controlPlane.matches("[^:\\s,]+:\\d+(,[^:\\s,]+:\\d+)*")) {
      throw new IllegalArgumentException("the control plane of worker pods must be host:port, not '" + controlPlane
          + "'");
    }
    Objects.requireNonNull(secretName, "secretName");
    Objects.requireNonNull(secretKey, "secretKey");
    WorkerPods.cpuMillis(cpuPerSlot);
    WorkerPods.memoryBytes(memoryPerSlot);
    if (dataPort < 1 || dataPort > 65535) {
      throw new IllegalArgumentException("the data port must be between 1 and 65535, not " + dataPort);
    }
    env = Map.copyOf(env);
    extraLabels = Map.copyOf(extraLabels);
    for (String own : WorkerPods.OWN_LABELS) {
      if (extraLabels.containsKey(own)) {
        throw new IllegalArgumentException("the labels " + String.join(", ", WorkerPods.OWN_LABELS)
            + " are the pool's own");
      }
    }
    Objects.requireNonNull(resync, "resync");
    Objects.requireNonNull(leftoverGrace, "leftoverGrace");
  }

  /** The defaults for everything but what has none: no limit of pods, no owner. */
  public static WorkerPodSettings of(String poolId, int slotsPerPod, String image, String controlPlane) {
    return new WorkerPodSettings(null, poolId, 0, slotsPerPod, image, null, null, controlPlane, DEFAULT_SECRET_NAME,
        DEFAULT_SECRET_KEY, DEFAULT_CPU_PER_SLOT, DEFAULT_MEMORY_PER_SLOT, DEFAULT_DATA_PORT, DEFAULT_JAVA_OPTS,
        Map.of(), Map.of(), null, Duration.ofSeconds(5), DEFAULT_LEFTOVER_GRACE);
  }

  /** The labels that select the pool's pods. */
  public Map<String, String> selector() {
    return Map.of(WorkerPods.NAME_LABEL, WorkerPods.NAME, WorkerPods.POOL_LABEL, poolId);
  }

  public WorkerPodSettings withNamespace(String n) {
    return new WorkerPodSettings(n, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels,
        ownerDeployment, resync, leftoverGrace);
  }

  public WorkerPodSettings withMaxPods(int m) {
    return new WorkerPodSettings(namespace, poolId, m, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels,
        ownerDeployment, resync, leftoverGrace);
  }

  public WorkerPodSettings withImagePullPolicy(String p) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, p, serviceAccount, controlPlane,
        secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerDeployment,
        resync, leftoverGrace);
  }

  public WorkerPodSettings withServiceAccount(String a) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, a, controlPlane,
        secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerDeployment,
        resync, leftoverGrace);
  }

  public WorkerPodSettings withSecret(String name, String key) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, name, key, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerDeployment,
        resync, leftoverGrace);
  }

  public WorkerPodSettings withResources(String cpu, String memory) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpu, memory, dataPort, javaOptions, env, extraLabels, ownerDeployment,
        resync, leftoverGrace);
  }

  public WorkerPodSettings withDataPort(int p) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, p, javaOptions, env, extraLabels,
        ownerDeployment, resync, leftoverGrace);
  }

  public WorkerPodSettings withJavaOptions(String o) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, o, env, extraLabels, ownerDeployment,
        resync, leftoverGrace);
  }

  public WorkerPodSettings withEnv(Map<String, String> e) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, e, extraLabels,
        ownerDeployment, resync, leftoverGrace);
  }

  public WorkerPodSettings withLabels(Map<String, String> l) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, l, ownerDeployment,
        resync, leftoverGrace);
  }

  public WorkerPodSettings withOwnerDeployment(String d) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, d,
        resync, leftoverGrace);
  }

  public WorkerPodSettings withResync(Duration r) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels,
        ownerDeployment, r, leftoverGrace);
  }

  public WorkerPodSettings withLeftoverGrace(Duration g) {
    return new WorkerPodSettings(namespace, poolId, maxPods, slotsPerPod, image, imagePullPolicy, serviceAccount,
        controlPlane, secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels,
        ownerDeployment, resync, g);
  }
}
