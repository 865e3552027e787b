package io.tributary.worker.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.tributary.worker.remote.RemoteWorkerPool;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Worker processes as Kubernetes pods for a {@link RemoteWorkerPool} ({@code server --workers
 * kubernetes:N}), the counterpart of {@code LocalProcessWorkers}: keeps {@link #desiredCount()} worker
 * pods in a namespace, each running {@code tributary worker} that registers at the pool's control
 * port with the pod's name as its worker id and the pod's IP ({@code status.podIP}, through the
 * downward API) as the address other workers reach its data port at.
 *
 * <ul>
 *   <li><b>Replacement.</b> A pod that failed or ended (its worker exited, it was evicted), that was
 *       deleted, or whose worker the pool lost (it is deleted first), is replaced by a new pod under a
 *       new name — so a worker that was merely cut off never comes back under the id of its
 *       replacement. Pods run with {@code restartPolicy: Never}: the pool, not the kubelet, restarts.
 *   <li><b>Identity.</b> Its pods carry {@code app.kubernetes.io/name: tributary-worker} and
 *       {@code tributary.io/server: <server id>} (the pool's id: one per server process, by default its
 *       host name, which in a pod is the pod's name). The pool keeps a number of workers, not workers
 *       per job: the pods carry no job or attempt labels. At start it deletes the pods of a previous
 *       instance under the same server id; on {@link #close} it deletes its own. With an owner pod
 *       (the server's own pod), the cluster's garbage collector deletes them when that pod goes, even
 *       if the server never closes the pool.
 *   <li><b>Scaling.</b> {@link #scale} sets the number of pods; scaling down deletes idle workers
 *       first. The control plane does not ask for pods per job yet: nothing calls {@link #scale} but
 *       its caller.
 * </ul>
 *
 * The pool watches its pods (an informer on its labels) and reconciles on every change and every
 * {@link Settings#resync()}, always from a fresh list of the API server's pods.
 */
public final class KubernetesWorkers implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(KubernetesWorkers.class.getName());

  /** The label every worker pod carries, with {@link #NAME}. */
  public static final String NAME_LABEL = "app.kubernetes.io/name";
  public static final String NAME = "tributary-worker";
  /** The label naming the pool (server instance) a pod belongs to. */
  public static final String SERVER_LABEL = "tributary.io/server";
  /** The annotation with a pod's worker slots. */
  public static final String SLOTS_ANNOTATION = "tributary.io/slots";
  /** Where a worker pod's cache directory (an emptyDir) is mounted. */
  public static final String CACHE_DIR = "/var/cache/tributary";

  private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern CPU = Pattern.compile("(\\d+(\\.\\d+)?)(m?)");

  /**
   * What the pods are.
   *
   * @param namespace where the pods run (null: the client's namespace, in a pod its own)
   * @param serverId the pool's id, the value of {@link #SERVER_LABEL}: a label value (up to 63
   *     letters, digits, {@code -_.})
   * @param count pods to keep running
   * @param slots slots of each worker ({@code --slots})
   * @param image the image: the distribution with {@code bin/tributary} as its entrypoint
   * @param imagePullPolicy null for the cluster's default
   * @param serviceAccount the pods' ServiceAccount, or null for the namespace's default
   * @param controlPlane {@code host:port} the workers register at (this server's worker port)
   * @param secretName the Secret holding the cluster secret
   * @param secretKey its key in that Secret
   * @param cpuPerSlot CPU requested per slot ({@code 500m}, {@code 1})
   * @param memoryPerSlot memory requested (and the limit) per slot ({@code 768Mi})
   * @param dataPort the workers' data port (fixed, for network policies)
   * @param javaOptions the workers' {@code TRIBUTARY_JAVA_OPTS}
   * @param env more environment of the workers (the S3 settings)
   * @param extraLabels more labels of the pods (not {@link #NAME_LABEL} or {@link #SERVER_LABEL})
   * @param ownerPod the name of the pod whose deletion deletes the workers' (the server's own), or null
   * @param resync how often the pool reconciles without being told of a change
   */
  public record Settings(String namespace, String serverId, int count, int slots, String image, String imagePullPolicy,
      String serviceAccount, String controlPlane, String secretName, String secretKey, String cpuPerSlot,
      String memoryPerSlot, int dataPort, String javaOptions, Map<String, String> env, Map<String, String> extraLabels,
      String ownerPod, Duration resync) {
    public static final String DEFAULT_SECRET_NAME = "tributary-secrets";
    public static final String DEFAULT_SECRET_KEY = "cluster-secret";
    public static final String DEFAULT_CPU_PER_SLOT = "500m";
    public static final String DEFAULT_MEMORY_PER_SLOT = "768Mi";
    public static final int DEFAULT_DATA_PORT = 7078;
    /** The heap follows the pod's memory limit. */
    public static final String DEFAULT_JAVA_OPTS = "-XX:MaxRAMPercentage=70";

    public Settings {
      Objects.requireNonNull(serverId, "serverId");
      if (!LABEL_VALUE.matcher(serverId).matches() || serverId.length() > 63) {
        throw new IllegalArgumentException("the server id '" + serverId + "' is no label value (up to 63 letters, "
            + "digits, '-', '_' or '.', beginning and ending with a letter or digit)");
      }
      if (namespace != null && (!DNS_LABEL.matcher(namespace).matches() || namespace.length() > 63)) {
        throw new IllegalArgumentException("the namespace '" + namespace + "' is no DNS label");
      }
      if (count < 0 || slots < 1) {
        throw new IllegalArgumentException("worker pods need a count of 0 or more and at least 1 slot");
      }
      if (image == null || image.isBlank()) {
        throw new IllegalArgumentException("worker pods need an image");
      }
      if (controlPlane == null || !controlPlane.matches("[^:\\s]+:\\d+")) {
        throw new IllegalArgumentException("the control plane of worker pods must be host:port, not '" + controlPlane
            + "'");
      }
      Objects.requireNonNull(secretName, "secretName");
      Objects.requireNonNull(secretKey, "secretKey");
      cpuMillis(cpuPerSlot);
      memoryBytes(memoryPerSlot);
      if (dataPort < 1 || dataPort > 65535) {
        throw new IllegalArgumentException("the data port must be between 1 and 65535, not " + dataPort);
      }
      env = Map.copyOf(env);
      extraLabels = Map.copyOf(extraLabels);
      if (extraLabels.containsKey(NAME_LABEL) || extraLabels.containsKey(SERVER_LABEL)) {
        throw new IllegalArgumentException("the labels " + NAME_LABEL + " and " + SERVER_LABEL + " are the pool's own");
      }
      Objects.requireNonNull(resync, "resync");
    }

    /** The defaults for everything but what has none. */
    public static Settings of(String serverId, int count, int slots, String image, String controlPlane) {
      return new Settings(null, serverId, count, slots, image, null, null, controlPlane, DEFAULT_SECRET_NAME,
          DEFAULT_SECRET_KEY, DEFAULT_CPU_PER_SLOT, DEFAULT_MEMORY_PER_SLOT, DEFAULT_DATA_PORT, DEFAULT_JAVA_OPTS,
          Map.of(), Map.of(), null, Duration.ofSeconds(5));
    }

    public Settings withNamespace(String n) {
      return new Settings(n, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane, secretName,
          secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerPod, resync);
    }

    public Settings withServiceAccount(String a) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, a, controlPlane, secretName,
          secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerPod, resync);
    }

    public Settings withSecret(String name, String key) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane, name,
          key, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerPod, resync);
    }

    public Settings withResources(String cpu, String memory) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane,
          secretName, secretKey, cpu, memory, dataPort, javaOptions, env, extraLabels, ownerPod, resync);
    }

    public Settings withJavaOptions(String o) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane,
          secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, o, env, extraLabels, ownerPod, resync);
    }

    public Settings withEnv(Map<String, String> e) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane,
          secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, e, extraLabels, ownerPod, resync);
    }

    public Settings withLabels(Map<String, String> l) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane,
          secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, l, ownerPod, resync);
    }

    public Settings withOwnerPod(String p) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane,
          secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, p, resync);
    }

    public Settings withImagePullPolicy(String p) {
      return new Settings(namespace, serverId, count, slots, image, p, serviceAccount, controlPlane, secretName,
          secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerPod, resync);
    }

    public Settings withDataPort(int p) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane,
          secretName, secretKey, cpuPerSlot, memoryPerSlot, p, javaOptions, env, extraLabels, ownerPod, resync);
    }

    public Settings withResync(Duration r) {
      return new Settings(namespace, serverId, count, slots, image, imagePullPolicy, serviceAccount, controlPlane,
          secretName, secretKey, cpuPerSlot, memoryPerSlot, dataPort, javaOptions, env, extraLabels, ownerPod, r);
    }

    /** The labels that select the pool's pods. */
    public Map<String, String> selector() {
      return Map.of(NAME_LABEL, NAME, SERVER_LABEL, serverId);
    }
  }

  private final RemoteWorkerPool pool;
  private final KubernetesClient client;
  private final boolean ownsClient;
  private final Settings settings;
  private final String namespace;
  private final OwnerReference owner;
  private final String namePrefix;
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final AtomicInteger desired;
  /** Pods whose workers the pool lost: deleted (and so replaced) at the next reconcile. */
  private final Set<String> lost = ConcurrentHashMap.newKeySet();
  /** Pods the pool deleted itself (their workers' loss is no news). */
  private final Set<String> deleted = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService loop;
  private final AtomicBoolean queued = new AtomicBoolean();
  private final SharedIndexInformer<Pod> informer;
  private final AtomicInteger replaced = new AtomicInteger();
  private volatile boolean closed;

  /**
   * A pool of pods through a client configured from the environment (in a pod: its ServiceAccount
   * and namespace; else {@code ~/.kube/config} and the {@code KUBERNETES_*} variables), closed with it.
   */
  public static KubernetesWorkers start(RemoteWorkerPool pool, Settings settings) {
    KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.autoConfigure(null)).build();
    try {
      return new KubernetesWorkers(pool, client, true, settings);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** A pool of pods through {@code client}, which stays open when the pool closes. */
  public KubernetesWorkers(RemoteWorkerPool pool, KubernetesClient client, Settings settings) {
    this(pool, client, false, settings);
  }

  private KubernetesWorkers(RemoteWorkerPool pool, KubernetesClient client, boolean ownsClient, Settings settings) {
    this.pool = pool;
    this.client = client;
    this.ownsClient = ownsClient;
    this.settings = settings;
    this.namespace = settings.namespace() != null ? settings.namespace()
        : client.getNamespace() != null ? client.getNamespace() : "default";
    this.desired = new AtomicInteger(settings.count());
    this.namePrefix = podNamePrefix(settings.serverId());
    try {
      this.owner = settings.ownerPod() == null ? null : ownerOf(settings.ownerPod());
      deleteLeftovers();
    } catch (KubernetesClientException e) {
      throw new IllegalStateException("worker pods in namespace " + namespace + ": the Kubernetes API refused or "
          + "cannot be reached: " + e.getMessage(), e);
    }
    this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "kubernetes-workers");
      t.setDaemon(true);
      return t;
    });
    pool.onWorkerEvent(e -> {
      if (e.lost() && e.worker().startsWith(namePrefix) && !closed && !deleted.contains(e.worker())) {
        LOG.log(System.Logger.Level.WARNING, "worker {0} was lost ({1}); deleting its pod to replace it", e.worker(),
            e.why());
        lost.add(e.worker());
        trigger();
      }
    });
    this.informer = pods().inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod p) {
        trigger();
      }

      @Override
      public void onUpdate(Pod before, Pod after) {
        trigger();
      }

      @Override
      public void onDelete(Pod p, boolean finalStateUnknown) {
        trigger();
      }
    }, settings.resync().toMillis());
    loop.scheduleWithFixedDelay(this::reconcile, 0, settings.resync().toMillis(), TimeUnit.MILLISECONDS);
  }

  private io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable<Pod, io.fabric8.kubernetes.api.model.PodList,
      io.fabric8.kubernetes.client.dsl.PodResource> pods() {
    return client.pods().inNamespace(namespace).withLabels(settings.selector());
  }

  private OwnerReference ownerOf(String podName) {
    Pod p = client.pods().inNamespace(namespace).withName(podName).get();
    if (p == null) {
      throw new IllegalArgumentException("the owner pod " + podName + " of the worker pods does not exist in namespace "
          + namespace);
    }
    return new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName(podName)
        .withUid(p.getMetadata().getUid()).build();
  }

  /** Deletes the pods a previous instance under this server id left (it did not close its pool). */
  private void deleteLeftovers() {
    List<Pod> left = pods().list().getItems();
    for (Pod p : left) {
      LOG.log(System.Logger.Level.INFO, "deleting worker pod {0} left by a previous instance of {1}",
          p.getMetadata().getName(), settings.serverId());
      client.pods().inNamespace(namespace).withName(p.getMetadata().getName()).withGracePeriod(0).delete();
    }
  }

  /** The namespace of the pods. */
  public String namespace() {
    return namespace;
  }

  /** The number of pods the pool keeps. */
  public int desiredCount() {
    return desired.get();
  }

  /** Pods the pool deleted to replace them so far (failed, ended, or whose worker it lost). */
  public int replacements() {
    return replaced.get();
  }

  /**
   * Keeps {@code count} pods from now on: more are created, or the surplus deleted, idle workers and
   * ones not registered yet first (a deleted busy worker's tasks restart elsewhere).
   */
  public void scale(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("a pod count must be 0 or more, not " + count);
    }
    int before = desired.getAndSet(count);
    if (before != count) {
      LOG.log(System.Logger.Level.INFO, "worker pods: {0} -> {1}", before, count);
    }
    trigger();
  }

  /** The pool's pods that run or are about to (not failed, ended or being deleted), by name. */
  public Map<String, Pod> pods(boolean liveOnly) {
    Map<String, Pod> out = new TreeMap<>();
    for (Pod p : pods().list().getItems()) {
      if (!liveOnly || live(p)) {
        out.put(p.getMetadata().getName(), p);
      }
    }
    return out;
  }

  private void trigger() {
    if (!closed && queued.compareAndSet(false, true)) {
      try {
        loop.execute(this::reconcile);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        queued.set(false);
      }
    }
  }

  private static boolean live(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return p.getMetadata().getDeletionTimestamp() == null && !"Failed".equals(phase) && !"Succeeded".equals(phase);
  }

  /** Brings the pods to the desired count: deletes the ended and lost ones, creates or deletes the difference. */
  private void reconcile() {
    queued.set(false);
    if (closed) {
      return;
    }
    try {
      List<Pod> all = pods().list().getItems();
      List<String> live = new ArrayList<>();
      for (Pod p : all) {
        String name = p.getMetadata().getName();
        if (p.getMetadata().getDeletionTimestamp() != null) {
          continue; // going; its replacement is made below
        }
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        if ("Failed".equals(phase) || "Succeeded".equals(phase) || lost.contains(name)) {
          String why = lost.contains(name) ? "its worker was lost" : "it " + ("Failed".equals(phase) ? "failed" : "ended")
              + reason(p);
          LOG.log(System.Logger.Level.WARNING, "worker pod {0}: {1}; deleting it, a new pod replaces it", name, why);
          delete(name);
          replaced.incrementAndGet();
          continue;
        }
        live.add(name);
      }
      Set<String> names = new java.util.HashSet<>();
      all.forEach(p -> names.add(p.getMetadata().getName()));
      lost.retainAll(names);
      deleted.removeIf(n -> !names.contains(n) && pool.workers().stream().noneMatch(w -> w.id().equals(n)));
      int want = desired.get();
      if (live.size() > want) {
        for (String name : surplus(live, live.size() - want)) {
          LOG.log(System.Logger.Level.INFO, "worker pod {0}: deleting it to scale down to {1}", name, want);
          delete(name);
        }
      }
      for (int i = live.size(); i < want && !closed; i++) {
        create();
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "worker pods in namespace " + namespace + ": cannot reconcile ("
          + e.getMessage() + "); trying again in " + settings.resync().toSeconds() + "s", e);
    }
  }

  private static String reason(Pod p) {
    if (p.getStatus() == null) {
      return "";
    }
    String r = p.getStatus().getReason();
    String m = p.getStatus().getMessage();
    return (r != null ? " (" + r + (m != null ? ": " + m : "") + ")" : m != null ? " (" + m + ")" : "");
  }

  /** The {@code n} pods to delete when scaling down: not registered, then idle, then least busy; newest first. */
  private List<String> surplus(List<String> live, int n) {
    Map<String, RemoteWorkerPool.WorkerInfo> registered = new java.util.HashMap<>();
    pool.workers().forEach(w -> registered.put(w.id(), w));
    Comparator<String> order = Comparator.comparingInt((String name) -> {
      RemoteWorkerPool.WorkerInfo w = registered.get(name);
      return w == null ? -1 : w.slots() - w.freeSlots();
    }).thenComparing(Comparator.comparingInt(KubernetesWorkers::sequence).reversed());
    return live.stream().sorted(order).limit(n).toList();
  }

  private static int sequence(String podName) {
    String[] parts = podName.split("-");
    try {
      return Integer.parseInt(parts[parts.length - 2]);
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private void delete(String name) {
    deleted.add(name);
    try {
      client.pods().inNamespace(namespace).withName(name).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  private void create() {
    String name = namePrefix + nextId.getAndIncrement() + "-" + random(5);
    Pod pod = podSpec(name);
    try {
      client.pods().inNamespace(namespace).resource(pod).create();
      LOG.log(System.Logger.Level.INFO, "created worker pod {0} in {1} ({2} slots)", name, namespace,
          settings.slots());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) { // a name taken (by another replica's pool): the next reconcile tries another
        trigger();
        return;
      }
      throw e;
    }
  }

  /** The pod of worker {@code name}. */
  Pod podSpec(String name) {
    return pod(settings, namespace, name, owner);
  }

  /** The pod spec of worker {@code name} (its worker id) under {@code settings}. */
  public static Pod pod(Settings settings, String namespace, String name, OwnerReference owner) {
    Map<String, String> labels = new LinkedHashMap<>(settings.extraLabels());
    labels.putAll(settings.selector());
    List<EnvVar> env = new ArrayList<>();
    env.add(new EnvVarBuilder().withName("POD_IP").withNewValueFrom().withNewFieldRef().withApiVersion("v1")
        .withFieldPath("status.podIP").endFieldRef().endValueFrom().build());
    env.add(new EnvVarBuilder().withName("TRIBUTARY_CLUSTER_SECRET").withNewValueFrom().withNewSecretKeyRef()
        .withName(settings.secretName()).withKey(settings.secretKey()).endSecretKeyRef().endValueFrom().build());
    if (settings.javaOptions() != null && !settings.javaOptions().isBlank()) {
      env.add(new EnvVarBuilder().withName("TRIBUTARY_JAVA_OPTS").withValue(settings.javaOptions()).build());
    }
    new TreeMap<>(settings.env()).forEach((k, v) -> env.add(new EnvVarBuilder().withName(k).withValue(v).build()));
    Quantity cpu = cpu(cpuMillis(settings.cpuPerSlot()) * settings.slots());
    Quantity memory = memory(memoryBytes(settings.memoryPerSlot()).multiply(BigDecimal.valueOf(settings.slots())));
    ContainerBuilder container = new ContainerBuilder().withName("worker").withImage(settings.image())
        .withImagePullPolicy(settings.imagePullPolicy())
        .withArgs("worker", "--control-plane", settings.controlPlane(), "--worker-id", name,
            "--slots", String.valueOf(settings.slots()), "--bind", "0.0.0.0", "--advertise", "$(POD_IP)",
            "--data-port", String.valueOf(settings.dataPort()), "--cache-dir", CACHE_DIR)
        .withEnv(env)
        .addNewPort().withName("data").withContainerPort(settings.dataPort()).withProtocol("TCP").endPort()
        .withNewResources().addToRequests("cpu", cpu).addToRequests("memory", memory)
        .addToLimits("memory", memory).endResources()
        .addNewVolumeMount().withName("cache").withMountPath(CACHE_DIR).endVolumeMount();
    PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels)
        .addToAnnotations(SLOTS_ANNOTATION, String.valueOf(settings.slots())).endMetadata()
        .withNewSpec().withRestartPolicy("Never").withServiceAccountName(settings.serviceAccount())
        .withTerminationGracePeriodSeconds(30L)
        .withContainers(container.build())
        .addNewVolume().withName("cache").withNewEmptyDir().endEmptyDir().endVolume()
        .endSpec();
    if (owner != null) {
      b.editMetadata().withOwnerReferences(owner).endMetadata();
    }
    return b.build();
  }

  /** Millicores of a CPU quantity such as {@code 500m}, {@code 1} or {@code 1.5}. */
  static long cpuMillis(String q) {
    var m = q == null ? null : CPU.matcher(q.trim());
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("a CPU quantity is such as 500m or 2, not '" + q + "'");
    }
    BigDecimal v = new BigDecimal(m.group(1));
    long millis = (m.group(3).isEmpty() ? v.multiply(BigDecimal.valueOf(1000)) : v).longValue();
    if (millis < 1) {
      throw new IllegalArgumentException("a CPU quantity must be at least 1m, not '" + q + "'");
    }
    return millis;
  }

  /** Bytes of a memory quantity such as {@code 768Mi} or {@code 1G}. */
  static BigDecimal memoryBytes(String q) {
    BigDecimal b;
    try {
      b = Quantity.getAmountInBytes(new Quantity(q.trim()));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("a memory quantity is such as 768Mi or 2Gi, not '" + q + "'");
    }
    if (b.signum() <= 0) {
      throw new IllegalArgumentException("a memory quantity must be positive, not '" + q + "'");
    }
    return b;
  }

  private static Quantity cpu(long millis) {
    return millis % 1000 == 0 ? new Quantity(String.valueOf(millis / 1000)) : new Quantity(millis + "m");
  }

  private static Quantity memory(BigDecimal bytes) {
    BigDecimal mi = BigDecimal.valueOf(1024L * 1024);
    BigDecimal[] qr = bytes.divideAndRemainder(mi);
    return qr[1].signum() == 0 ? new Quantity(qr[0].toBigInteger() + "Mi")
        : new Quantity(bytes.toBigInteger().toString());
  }

  /** {@code <server id, as a DNS label, up to 40>-w-}: every pod name of the pool starts so. */
  static String podNamePrefix(String serverId) {
    String s = serverId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+", "");
    if (s.length() > 40) {
      s = s.substring(0, 40);
    }
    s = s.replaceAll("-+$", "");
    return (s.isEmpty() ? "tributary" : s) + "-w-";
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private static String random(int n) {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  /** Deletes the pool's pods and stops watching them. */
  @Override
  public void close() {
    closed = true;
    loop.shutdownNow();
    try {
      loop.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    informer.close();
    try {
      // one by one: the pool's RBAC grants delete, not deletecollection
      for (Pod p : pods().list().getItems()) {
        delete(p.getMetadata().getName());
      }
    } catch (KubernetesClientException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot delete the worker pods in " + namespace + ": " + e.getMessage()
          + (owner != null ? "; they go with their owner pod " + owner.getName() : ""), e);
    } finally {
      if (ownsClient) {
        client.close();
      }
    }
  }
}
