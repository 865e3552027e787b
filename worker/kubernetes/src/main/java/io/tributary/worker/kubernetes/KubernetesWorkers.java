package io.tributary.worker.kubernetes;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.tributary.protocol.AttemptId;
import io.tributary.worker.remote.Capacity;
import io.tributary.worker.remote.RemoteWorkerPool;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Worker pods per attempt for a {@link RemoteWorkerPool} ({@code server --workers kubernetes}): its
 * {@link Capacity}. When an attempt needs slots, the pool creates pods for it ({@link
 * WorkerPods#split}: as few as hold its slots with at most {@link WorkerPodSettings#slotsPerPod} each;
 * {@link WorkerPods#pod} for their spec and labels), and the attempt's tasks go only to its own pods'
 * workers ({@link #serves}). When the attempt is over — finished, failed, stopped, rescaled into a new
 * attempt, gone idle: every one ends in a release — its pods are deleted.
 *
 * <ul>
 *   <li><b>Failures.</b> A pod that fails or ends (its worker exited, it was evicted), or whose worker
 *       the pool lost, is deleted. While its attempt still waits for its slots a new pod replaces it;
 *       once the attempt runs, the lost worker fails it, and the job master's next attempt gets new pods.
 *   <li><b>Outliving a control plane.</b> Only the replica that leads ({@link RemoteWorkerPool#accepting})
 *       creates or deletes pods, and the pods carry the pool's id, which every replica shares, and belong
 *       to the server's Deployment ({@link WorkerPodSettings#ownerDeployment}), not to one server pod. A
 *       server that stops leading or shuts down leaves the pods of the attempts it {@linkplain #detached
 *       let go of} running; the next leader keeps the pods of the attempts their workers say they still
 *       run (the pool's orphans, then taken over), deletes those of an attempt a newer one of its job
 *       superseded at once, and the rest once it has led for {@link WorkerPodSettings#leftoverGrace}.
 *   <li><b>Limit.</b> With {@link WorkerPodSettings#maxPods}, an attempt whose pods would take the pool
 *       over it gets none until pods go; its acquire fails saying so ({@link #shortage}).
 * </ul>
 *
 * The pool watches its pods (an informer on its labels) and reconciles ({@link PodReconcile}) on every
 * change, every pool event and every {@link WorkerPodSettings#resync}, always from a fresh list of the
 * API server's pods, on one thread.
 */
public final class KubernetesWorkers implements Capacity, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(KubernetesWorkers.class.getName());
  private static final SecureRandom RANDOM = new SecureRandom();

  private final RemoteWorkerPool pool;
  private final KubernetesClient client;
  private final boolean ownsClient;
  private final WorkerPodSettings settings;
  private final String namespace;
  private final OwnerReference owner;
  /** Attempts that asked for pods and are not over, in the order they asked; guarded by itself. */
  private final Map<AttemptId, PodReconcile.Demand> demands = new LinkedHashMap<>();
  /** The pods this pool made, with their attempts. */
  private final Map<String, AttemptId> made = new ConcurrentHashMap<>();
  /** Attempts released: their pods go. */
  private final Set<AttemptId> ended = ConcurrentHashMap.newKeySet();
  /** Attempts let go of, for the next leader: their pods stay, until this replica leads again. */
  private final Set<AttemptId> letGo = ConcurrentHashMap.newKeySet();
  /** Pods whose workers the pool lost: deleted at the next reconcile. */
  private final Set<String> lost = ConcurrentHashMap.newKeySet();
  /** Pods the pool deleted itself (their workers' loss is no news). */
  private final Set<String> deleted = ConcurrentHashMap.newKeySet();
  private volatile Set<String> listed = Set.of();
  private volatile Set<AttemptId> blocked = Set.of();
  /** Why the last reconcile failed (the API refused or could not be reached), or null. */
  private volatile String refusal;
  private final AtomicInteger failed = new AtomicInteger();
  private final ScheduledExecutorService loop;
  private final AtomicBoolean queued = new AtomicBoolean();
  private final SharedIndexInformer<Pod> informer;
  /** When this replica began to lead, or -1 while it does not; the loop's thread only. */
  private long leadingSince = -1;
  private volatile boolean closed;

  /**
   * The pods of {@code pool} through a client configured from the environment (in a pod: its
   * ServiceAccount and namespace; else {@code ~/.kube/config} and the {@code KUBERNETES_*} variables),
   * closed with it.
   */
  public static KubernetesWorkers start(RemoteWorkerPool pool, WorkerPodSettings settings) {
    KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.autoConfigure(null)).build();
    try {
      return new KubernetesWorkers(pool, client, true, settings);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /**
   * The pods of {@code pool} through {@code client}, which stays open when this closes. Becomes the
   * pool's {@linkplain RemoteWorkerPool#useCapacity capacity}.
   *
   * @throws KubernetesUnavailableException if the API cannot be reached or refuses to list the pods
   * @throws IllegalArgumentException if the owner Deployment does not exist
   */
  public KubernetesWorkers(RemoteWorkerPool pool, KubernetesClient client, WorkerPodSettings settings) {
    this(pool, client, false, settings);
  }

  private KubernetesWorkers(RemoteWorkerPool pool, KubernetesClient client, boolean ownsClient,
      WorkerPodSettings settings) {
    this.pool = pool;
    this.client = client;
    this.ownsClient = ownsClient;
    this.settings = settings;
    this.namespace = settings.namespace() != null ? settings.namespace()
        : client.getNamespace() != null ? client.getNamespace() : "default";
    try {
      this.owner = settings.ownerDeployment() == null ? null : ownerOf(settings.ownerDeployment());
      pods().list();
    } catch (KubernetesClientException e) {
      throw new KubernetesUnavailableException("worker pods in namespace " + namespace + ": the Kubernetes API at "
          + client.getMasterUrl() + (e.getCode() > 0 ? " refused to list them (HTTP " + e.getCode() + ": " : " cannot be reached (")
          + rootReason(e) + "); run the server in the cluster, with a service account that may manage pods there, "
          + "or point KUBECONFIG at the cluster", e);
    }
    pool.useCapacity(this);
    this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "kubernetes-workers");
      t.setDaemon(true);
      return t;
    });
    pool.onWorkerEvent(this::workerEvent);
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

  private FilterWatchListDeletable<Pod, PodList, PodResource> pods() {
    return client.pods().inNamespace(namespace).withLabels(settings.selector());
  }

  private OwnerReference ownerOf(String deployment) {
    Deployment d = client.apps().deployments().inNamespace(namespace).withName(deployment).get();
    if (d == null) {
      throw new IllegalArgumentException("the owner Deployment " + deployment + " of the worker pods does not exist "
          + "in namespace " + namespace);
    }
    return new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("Deployment").withName(deployment)
        .withUid(d.getMetadata().getUid()).build();
  }

  // ---- Capacity

  @Override
  public void demand(AttemptId attempt, int slots) {
    synchronized (demands) {
      demands.put(attempt, new PodReconcile.Demand(slots, false));
    }
    ended.remove(attempt);
    LOG.log(System.Logger.Level.INFO, "attempt {0} needs {1} slots: worker pods of up to {2} slots", attempt, slots,
        settings.slotsPerPod());
    trigger();
  }

  /** Whether {@code worker} runs in a pod this pool made for {@code attempt} that it keeps. */
  @Override
  public boolean serves(AttemptId attempt, String worker) {
    return attempt.equals(made.get(worker)) && !deleted.contains(worker) && !lost.contains(worker);
  }

  @Override
  public void granted(AttemptId attempt) {
    synchronized (demands) {
      demands.computeIfPresent(attempt, (a, d) -> new PodReconcile.Demand(d.slots(), true));
    }
  }

  @Override
  public void released(AttemptId attempt) {
    ended.add(attempt);
    synchronized (demands) {
      demands.remove(attempt);
    }
    letGo.remove(attempt);
    trigger();
  }

  /**
   * The attempt's pods stay, for the next leader: this pool deletes none of them until it leads again
   * (a reconcile that began while it still led must not take them for leftovers).
   */
  @Override
  public void detached(AttemptId attempt) {
    letGo.add(attempt); // first: a reconcile reads the demands and routes before it
    synchronized (demands) {
      demands.remove(attempt);
    }
  }

  @Override
  public String shortage(AttemptId attempt) {
    String why = refusal;
    if (why != null) {
      return "the Kubernetes API refused its worker pods: " + why;
    }
    if (blocked.contains(attempt)) {
      return "the pool runs its limit of " + settings.maxPods() + " worker pods (--workers kubernetes:"
          + settings.maxPods() + "); stop a job, or raise the limit";
    }
    return "its worker pods did not all start and register in time (kubectl -n " + namespace + " get pods -l "
        + WorkerPods.POOL_LABEL + "=" + settings.poolId() + "," + WorkerPods.ATTEMPT_LABEL + "=" + attempt.attempt()
        + ")";
  }

  // ---- what there is

  /** The namespace of the pods. */
  public String namespace() {
    return namespace;
  }

  /** Pods deleted so far because they failed or ended, or their workers were lost. */
  public int failedPods() {
    return failed.get();
  }

  // ---- reconciling

  private void trigger() {
    if (!closed && queued.compareAndSet(false, true)) {
      try {
        loop.execute(this::reconcile);
      } catch (RejectedExecutionException e) {
        queued.set(false);
      }
    }
  }

  private void workerEvent(RemoteWorkerPool.WorkerEvent e) {
    String w = e.worker();
    if (e.lost() && !closed && pool.accepting() && !deleted.contains(w)
        && (made.containsKey(w) || listed.contains(w))) {
      LOG.log(System.Logger.Level.WARNING, "worker {0} was lost ({1}); deleting its pod", w, e.why());
      lost.add(w);
    }
    trigger(); // a worker joined or left: maybe an attempt's pod came up or went
  }

  /** Brings the pods to what {@link PodReconcile} says: deletes, then creates. */
  private void reconcile() {
    queued.set(false);
    if (closed) {
      return;
    }
    try {
      boolean leading = pool.accepting();
      long now = System.nanoTime();
      if (leading && leadingSince < 0) {
        letGo.clear(); // leading again: what it let go of is the new leader's to take over, or a leftover
      }
      leadingSince = !leading ? -1 : leadingSince < 0 ? now : leadingSince;
      Set<AttemptId> endedBefore = Set.copyOf(ended);
      List<Pod> pods = pods().list().getItems();
      List<PodReconcile.PodState> states = pods.stream().map(KubernetesWorkers::state).toList();
      PodReconcile.Outcome out = PodReconcile.of(inputs(states, leading, now));
      Set<String> createdNow = new HashSet<>();
      if (carryOut(out, states, leading, createdNow)) {
        noteBlocked(out.blocked());
        forget(states, endedBefore, createdNow);
      }
      refusal = null;
    } catch (RuntimeException e) {
      refusal = why(e);
      LOG.log(System.Logger.Level.WARNING, "worker pods in namespace " + namespace + ": cannot reconcile ("
          + refusal + "); trying again in " + settings.resync().toSeconds() + "s", e);
    }
  }

  /** What the API said, in a line: its status's message and code, else the exception's message. */
  private static String why(RuntimeException e) {
    if (e instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null) {
      return k.getStatus().getMessage() + " (HTTP " + k.getCode() + ")";
    }
    return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getSimpleName());
  }

  /**
   * What the reconcile decides on. The demands, then the pool's routes, then the attempts let go of are
   * read in this order, the order in which an attempt moves from one to the next ({@link #detached} is
   * told before the pool forgets the route): so no attempt that runs is missed by all three.
   */
  /**
   * Deletes, then creates, as {@code out} says. Decided while this replica led, each step is taken only
   * if it still leads (a pause may have outlasted its lease); else it stops, and reconciles again.
   *
   * @return whether it did all
   */
  private boolean carryOut(PodReconcile.Outcome out, List<PodReconcile.PodState> states, boolean leading,
      Set<String> createdNow) {
    for (PodReconcile.PodState p : states) {
      String why = out.deletions().get(p.name());
      if (why != null) {
        if (leading && !pool.accepting()) {
          trigger();
          return false;
        }
        delete(p, why);
      }
    }
    for (PodReconcile.Creation c : out.creations()) {
      for (int slots : c.slots()) {
        if (!pool.accepting()) {
          trigger();
          return false;
        }
        String name = create(c.attempt(), slots);
        if (name != null) {
          createdNow.add(name);
        }
      }
    }
    return true;
  }

  private PodReconcile.Inputs inputs(List<PodReconcile.PodState> states, boolean leading, long now) {
    Map<AttemptId, PodReconcile.Demand> wanted;
    synchronized (demands) {
      wanted = new LinkedHashMap<>(demands);
    }
    Set<AttemptId> kept = new HashSet<>(pool.attempts());
    kept.addAll(letGo);
    boolean expired = leading && now - leadingSince >= settings.leftoverGrace().toNanos();
    return new PodReconcile.Inputs(states, wanted, Map.copyOf(made), kept, Set.copyOf(ended), Set.copyOf(lost),
        leading, expired, settings.maxPods(), settings.slotsPerPod());
  }

  static PodReconcile.PodState state(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    PodReconcile.Phase ph = p.getMetadata().getDeletionTimestamp() != null ? PodReconcile.Phase.GOING
        : "Failed".equals(phase) || "Succeeded".equals(phase) ? PodReconcile.Phase.ENDED : PodReconcile.Phase.LIVE;
    String reason = ph != PodReconcile.Phase.ENDED ? null : ("Failed".equals(phase) ? "failed" : "ended") + reason(p);
    return new PodReconcile.PodState(p.getMetadata().getName(), WorkerPods.attemptOf(p), WorkerPods.slotsOf(p), ph,
        reason);
  }

  private static String reason(Pod p) {
    String r = p.getStatus().getReason();
    String m = p.getStatus().getMessage();
    return r != null ? " (" + r + (m != null ? ": " + m : "") + ")" : m != null ? " (" + m + ")" : "";
  }

  private void noteBlocked(Set<AttemptId> now) {
    for (AttemptId a : now) {
      if (!blocked.contains(a)) {
        LOG.log(System.Logger.Level.WARNING, "attempt {0} waits for worker pods: the pool runs its limit of {1}", a,
            settings.maxPods());
      }
    }
    blocked = Set.copyOf(now);
  }

  /** Drops what no pod is left for: ended attempts, lost and deleted pods, pods made. */
  private void forget(List<PodReconcile.PodState> states, Set<AttemptId> endedBefore, Set<String> createdNow) {
    Set<String> names = states.stream().map(PodReconcile.PodState::name).collect(Collectors.toSet());
    Set<AttemptId> withPods = states.stream().map(PodReconcile.PodState::attempt).collect(Collectors.toSet());
    names.addAll(createdNow);
    listed = Set.copyOf(names);
    endedBefore.stream().filter(a -> !withPods.contains(a)).forEach(ended::remove);
    made.keySet().retainAll(names);
    lost.retainAll(names);
    Set<String> registered = pool.workers().stream().map(RemoteWorkerPool.WorkerInfo::id).collect(Collectors.toSet());
    deleted.removeIf(n -> !names.contains(n) && !registered.contains(n));
  }

  private void delete(PodReconcile.PodState p, String why) {
    boolean failure = p.phase() == PodReconcile.Phase.ENDED || lost.contains(p.name());
    if (failure) {
      failed.incrementAndGet();
    }
    LOG.log(failure ? System.Logger.Level.WARNING : System.Logger.Level.INFO, "deleting worker pod {0}: {1}",
        p.name(), why);
    delete(p.name());
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

  /** Creates a pod of {@code slots} slots for {@code attempt}; its name, or null if the name was taken. */
  private String create(AttemptId attempt, int slots) {
    String name = WorkerPods.podName(settings.poolId(), attempt, random(5));
    made.put(name, attempt);
    try {
      client.pods().inNamespace(namespace).resource(WorkerPods.pod(settings, namespace, name, attempt, slots, owner))
          .create();
      LOG.log(System.Logger.Level.INFO, "created worker pod {0} in {1} for attempt {2} ({3} slots)", name, namespace,
          attempt, slots);
      return name;
    } catch (KubernetesClientException e) {
      made.remove(name);
      if (e.getCode() == 409) { // the name is taken: the next reconcile tries another
        trigger();
        return null;
      }
      throw e;
    }
  }

  private static String random(int n) {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  /**
   * Stops watching and reconciling. Deletes the pods of attempts still waiting for their slots, and of
   * those released; the pods of attempts that run stay (a server shutting down detached them for the
   * next one).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    loop.shutdownNow();
    try {
      loop.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    informer.close();
    try {
      Set<AttemptId> going;
      synchronized (demands) {
        going = demands.entrySet().stream().filter(d -> !d.getValue().granted()).map(Map.Entry::getKey)
            .collect(Collectors.toCollection(HashSet::new));
      }
      going.addAll(ended);
      for (Map.Entry<String, AttemptId> p : made.entrySet()) {
        if (going.contains(p.getValue())) {
          delete(p.getKey());
        }
      }
    } catch (KubernetesClientException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot delete the worker pods of waiting attempts in " + namespace + ": "
          + e.getMessage(), e);
    } finally {
      if (ownsClient) {
        client.close();
      }
    }
  }

  /** The innermost cause's message, on one line: what went wrong below the client's own wrapping. */
  private static String rootReason(Throwable e) {
    Throwable root = io.tributary.protocol.Causes.root(e);
    if (root instanceof java.nio.channels.UnresolvedAddressException || root instanceof java.net.UnknownHostException) {
      return "its host name does not resolve";
    }
    String m = root.getMessage() == null || root.getMessage().isBlank() ? root.getClass().getSimpleName() : root.getMessage();
    return m.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /** The Kubernetes API cannot be reached or refuses: the message says where and what to fix, in one line. */
  public static final class KubernetesUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    KubernetesUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
