package io.tributary.worker.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tributary.protocol.AttemptId;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The worker pods of one attempt, as pure functions: their spec, names, labels, and how an attempt's
 * slots are spread over them.
 *
 * <p>A pod runs {@code tributary worker} (the image's entrypoint) that registers at the control plane
 * with the pod's name as its worker id and the pod's IP ({@code status.podIP}, through the downward
 * API) as the address other workers reach its data port at, {@code restartPolicy: Never} (the pool,
 * not the kubelet, decides what replaces it). It is labelled {@link #NAME_LABEL}: {@link #NAME},
 * {@link #POOL_LABEL}: the pool's id, {@link #JOB_LABEL}: the job's internal name as a label value
 * ({@link #labelValue}: shortened with a hash if too long) and {@link #ATTEMPT_LABEL}: the attempt's
 * number; its annotations hold the job's whole internal name ({@link #JOB_LABEL}) and its slots
 * ({@link #SLOTS_ANNOTATION}). It requests CPU and memory per slot times its slots, the memory also
 * as its limit.
 */
public final class WorkerPods {
  /** The label every worker pod carries, with {@link #NAME}. */
  public static final String NAME_LABEL = "app.kubernetes.io/name";
  public static final String NAME = "tributary-worker";
  /** The label naming the pool (the control plane, all its replicas) a pod belongs to. */
  public static final String POOL_LABEL = "tributary.io/pool";
  /** The label (a label value of it) and the annotation (all of it) with the job's internal name. */
  public static final String JOB_LABEL = "tributary.io/job";
  /** The label with the attempt's number. */
  public static final String ATTEMPT_LABEL = "tributary.io/attempt";
  /** The annotation with a pod's worker slots. */
  public static final String SLOTS_ANNOTATION = "tributary.io/slots";
  /** The labels the pool sets itself. */
  public static final List<String> OWN_LABELS = List.of(NAME_LABEL, POOL_LABEL, JOB_LABEL, ATTEMPT_LABEL);
  /** Where a worker pod's cache directory (an emptyDir) is mounted. */
  public static final String CACHE_DIR = "/var/cache/tributary";

  private static final Pattern CPU = Pattern.compile("(\\d+(\\.\\d+)?)(m?)");
  private static final int MAX_LABEL = 63;

  private WorkerPods() {}

  /**
   * The slots of each pod of an attempt that needs {@code slots}: as few pods as hold them with at
   * most {@code perPod} each, the slots spread evenly (larger pods first). 5 over pods of up to 4 is
   * {@code [3, 2]}; 8 is {@code [4, 4]}.
   */
  public static List<Integer> split(int slots, int perPod) {
    if (slots < 0 || perPod < 1) {
      throw new IllegalArgumentException("cannot spread " + slots + " slots over pods of " + perPod);
    }
    int pods = (slots + perPod - 1) / perPod;
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      out.add(slots / pods + (i < slots % pods ? 1 : 0));
    }
    return out;
  }

  /** The pod of worker {@code name} (its worker id) for {@code slots} slots of {@code attempt}. */
  public static Pod pod(WorkerPodSettings settings, String namespace, String name, AttemptId attempt, int slots,
      OwnerReference owner) {
    Map<String, String> labels = new LinkedHashMap<>(settings.extraLabels());
    labels.putAll(settings.selector());
    labels.put(JOB_LABEL, labelValue(attempt.job()));
    labels.put(ATTEMPT_LABEL, String.valueOf(attempt.attempt()));
    Quantity memory = memory(memoryBytes(settings.memoryPerSlot()).multiply(BigDecimal.valueOf(slots)));
    ContainerBuilder container = new ContainerBuilder().withName("worker").withImage(settings.image())
        .withImagePullPolicy(settings.imagePullPolicy())
        .withArgs("worker", "--control-plane", settings.controlPlane(), "--worker-id", name,
            "--slots", String.valueOf(slots), "--bind", "0.0.0.0", "--advertise", "$(POD_IP)",
            "--data-port", String.valueOf(settings.dataPort()), "--cache-dir", CACHE_DIR)
        .withEnv(env(settings))
        .addNewPort().withName("data").withContainerPort(settings.dataPort()).withProtocol("TCP").endPort()
        .withNewResources().addToRequests("cpu", cpu(cpuMillis(settings.cpuPerSlot()) * slots))
        .addToRequests("memory", memory).addToLimits("memory", memory).endResources()
        .addNewVolumeMount().withName("cache").withMountPath(CACHE_DIR).endVolumeMount();
    PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels)
        .addToAnnotations(JOB_LABEL, attempt.job()).addToAnnotations(SLOTS_ANNOTATION, String.valueOf(slots))
        .endMetadata()
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

  private static List<EnvVar> env(WorkerPodSettings settings) {
    List<EnvVar> env = new ArrayList<>();
    env.add(new EnvVarBuilder().withName("POD_IP").withNewValueFrom().withNewFieldRef().withApiVersion("v1")
        .withFieldPath("status.podIP").endFieldRef().endValueFrom().build());
    env.add(new EnvVarBuilder().withName("TRIBUTARY_CLUSTER_SECRET").withNewValueFrom().withNewSecretKeyRef()
        .withName(settings.secretName()).withKey(settings.secretKey()).endSecretKeyRef().endValueFrom().build());
    if (settings.javaOptions() != null && !settings.javaOptions().isBlank()) {
      env.add(new EnvVarBuilder().withName("TRIBUTARY_JAVA_OPTS").withValue(settings.javaOptions()).build());
    }
    new TreeMap<>(settings.env()).forEach((k, v) -> env.add(new EnvVarBuilder().withName(k).withValue(v).build()));
    return env;
  }

  /** The attempt a pod of the pool runs for (from its annotation and label), or null if it says none. */
  public static AttemptId attemptOf(Pod p) {
    Map<String, String> annotations = p.getMetadata().getAnnotations();
    Map<String, String> labels = p.getMetadata().getLabels();
    String job = annotations == null ? null : annotations.get(JOB_LABEL);
    String attempt = labels == null ? null : labels.get(ATTEMPT_LABEL);
    try {
      return job == null || attempt == null ? null : new AttemptId(job, Long.parseLong(attempt));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The slots a pod's worker has (its annotation; 0 if it has none). */
  public static int slotsOf(Pod p) {
    Map<String, String> annotations = p.getMetadata().getAnnotations();
    try {
      return annotations == null ? 0 : Integer.parseInt(annotations.getOrDefault(SLOTS_ANNOTATION, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * {@code text} as a label value: characters other than letters, digits, {@code -_.} become {@code -};
   * longer than 63, its first 54 and a hash of the whole, so different texts stay different.
   */
  public static String labelValue(String text) {
    String s = trimToAlphanumeric(text.replaceAll("[^A-Za-z0-9._-]", "-"));
    if (s.length() > MAX_LABEL) {
      s = trimToAlphanumeric(s.substring(0, MAX_LABEL - 9)) + "-" + hash(text);
    }
    return s.isEmpty() ? hash(text) : s;
  }

  /**
   * A new pod's name: {@code <pool>-<job>-<attempt>-<random>}, the pool's id and the job as DNS labels
   * shortened (to 14 and 26), so the name stays a DNS label (63 at most) for numbers of up to 13 digits.
   */
  public static String podName(String poolId, AttemptId attempt, String random) {
    return dns(poolId, 14) + "-" + dns(attempt.job(), 26) + "-" + attempt.attempt() + "-" + random;
  }

  private static String dns(String text, int max) {
    String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+", "");
    s = (s.length() > max ? s.substring(0, max) : s).replaceAll("-+$", "");
    return s.isEmpty() ? "w" : s;
  }

  private static String trimToAlphanumeric(String s) {
    return s.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
  }

  private static String hash(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
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
}
