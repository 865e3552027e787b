package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tributary.boot.ClusterSecret;
import io.tributary.boot.ControlTests;
import io.tributary.boot.EmbeddedServices;
import io.tributary.boot.WorkersOption;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.lifecycle.TaskPlacement;
import io.tributary.worker.kubernetes.KubernetesWorkers;
import io.tributary.worker.kubernetes.WorkerPodSettings;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes pool's pods per job with real worker processes; only the Kubernetes API is a
 * stand-in (fabric8's mock API server in CRUD mode, {@link MockKubernetesApi}), with a {@link
 * KubeletStandIn} that runs each pod the pool creates as a worker process from the pod's own spec and
 * kills it when the pod is deleted. Keyed window jobs over a bounded, rate-limited Nexmark source
 * write files, whose committed output must be exactly that of a failure-free run.
 */
class KubernetesWorkersIT {
  private static final String P = "default";
  private static final String NS = "tributary";
  private static final String IMAGE = "registry.example/tributary:it";
  private static final String SECRET = "kubernetes-workers-it-cluster-secret";
  private static final String POOL = "it-pool";
  private static final Pattern EPOCH = Pattern.compile("(?:run started|took over its running attempt) \\(epoch (\\d+)\\)");
  private static final Map<String, String> OURS = Map.of("app.kubernetes.io/name", "tributary-worker",
      "tributary.io/pool", POOL);

  @TempDir
  Path tmp;

  private MockKubernetesApi api;
  private KubernetesClient client;
  private KubeletStandIn kubelet;

  @BeforeEach
  void startApi() {
    api = MockKubernetesApi.start(tmp.resolve("mock-api.log"));
    client = api.client(NS);
    client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("tributary-secrets")
        .endMetadata().addToData("cluster-secret", Base64.getEncoder().encodeToString(
            SECRET.getBytes(StandardCharsets.UTF_8))).build()).create();
    client.apps().deployments().inNamespace(NS).resource(new DeploymentBuilder().withNewMetadata()
        .withName("tributary-server").endMetadata().build()).create();
    kubelet = new KubeletStandIn(client, NS, IMAGE, tmp.resolve("kubelet"));
  }

  @AfterEach
  void stopApi() {
    kubelet.close();
    client.close();
    api.close();
  }

  /**
   * Two jobs on pods of their own: {@code bids} starts at parallelism 1 on one pod of two slots, is
   * rescaled to 2 (a new attempt on two new pods; the old attempt's pod deleted), loses a busy pod to an
   * eviction (the attempt fails; the next one runs on new pods) and finishes with exact output, its pods
   * deleted; {@code clicks} runs beside it on its own pod until it is stopped, which deletes the pod. A
   * previous control plane's pod of a job gone is deleted after the leftover grace; another pool's pod
   * is left alone.
   */
  @Timeout(240)
  @Test
  void jobsRunOnPodsOfTheirOwnThroughARescaleAndAnEvictionWithExactOutput() throws Exception {
    Path out = tmp.resolve("out");
    String spec = bids(out, 700);
    List<String> expected = ControlTests.reference(bids(out, 0), out);
    deleteTree(out);
    client.pods().inNamespace(NS).resource(leftover("it-pool-default--gone-9-old11", POOL, IMAGE)).create();
    client.pods().inNamespace(NS).resource(leftover("other-default--bids-1-abcde", "other", "someone/else:1")).create();
    await("the leftover runs", () -> kubelet.running().contains("it-pool-default--gone-9-old11"));
    Process leftover = kubelet.process("it-pool-default--gone-9-old11");

    try (Server server = new Server(0, Duration.ofSeconds(3))) {
      JobManager jobs = server.jobs;
      jobs.apply(P, "bids", spec, null);
      long first = awaitRunsOnItsPods(server, "bids", -1, 2);
      jobs.apply(P, "clicks", ControlTests.trickle("clicks", "1"), null);
      long clicks = awaitRunsOnItsPods(server, "clicks", -1, 2);
      assertThat(podNames("default--clicks")).as("two jobs, separate pods").doesNotContainAnyElementsOf(
          podNames("default--bids"));
      await("the leftover pod of a job gone is deleted after the grace, its process with it",
          () -> !names(OURS).contains("it-pool-default--gone-9-old11") && !leftover.isAlive());

      jobs.rescale(P, "bids", 2);
      long second = awaitRunsOnItsPods(server, "bids", first, 4);
      await("the first attempt's pod is deleted", () -> pods("default--bids", first).isEmpty());
      awaitCheckpoint(jobs, "bids", second);

      String victim = pods("default--bids", second).get(0).getMetadata().getName();
      System.out.println("evicting pod " + victim + " of attempt " + second);
      kubelet.evict(victim);
      long third = awaitRunsOnItsPods(server, "bids", second, 4);
      await("the failed attempt's pods are deleted", () -> pods("default--bids", second).isEmpty());
      assertThat(names(OURS)).doesNotContain(victim);
      assertThat(server.workers.failedPods()).isGreaterThanOrEqualTo(1);

      jobs.stop(P, "clicks", false);
      await("stopping clicks deletes its pod", () -> pods("default--clicks", clicks).isEmpty());

      awaitFinished(jobs, "bids");
      System.out.println(ControlTests.timeline(jobs.events(P, "bids")));
      assertThat(ControlTests.committed(out)).as("committed output").containsExactlyElementsOf(expected);
      assertThat(ControlTests.hidden(out)).as("nothing left in progress").isEmpty();
      await("the finished job's pods are deleted, and so their processes", () -> names(OURS).isEmpty()
          && kubelet.running().isEmpty());
      assertThat(latestEpoch(jobs, "bids")).isEqualTo(third);
      assertThat(names(Map.of("tributary.io/pool", "other"))).as("another pool's pod stays")
          .containsExactly("other-default--bids-1-abcde");
      assertThat(kubelet.errors).as("the stand-in's errors").isEmpty();
    }
  }

  /**
   * A server that shuts down (as in a rolling upgrade) leaves its job's pods running; the server that
   * starts next, on the same worker port and pool, takes the running attempt over on them — no restart,
   * the same worker processes — deletes a pod of an attempt that one superseded, and the output is
   * exact.
   */
  @Timeout(240)
  @Test
  void theNextServerTakesTheRunningAttemptOverOnItsPods() throws Exception {
    Path out = tmp.resolve("out");
    String spec = bids(out, 600);
    List<String> expected = ControlTests.reference(bids(out, 0), out);
    deleteTree(out);
    int port = freePort();
    long epoch;
    Map<String, Long> pids = new TreeMap<>();
    try (Server before = new Server(port, Duration.ofSeconds(60))) {
      before.jobs.apply(P, "bids", spec, null);
      epoch = awaitRunsOnItsPods(before, "bids", 0, 2); // after 0: the superseded pod below is attempt 0's
      awaitCheckpoint(before.jobs, "bids", epoch);
      for (Pod p : pods("default--bids", epoch)) {
        pids.put(p.getMetadata().getName(), kubelet.process(p.getMetadata().getName()).pid());
      }
    }
    assertThat(podNames("default--bids")).as("the pods outlive the server").isEqualTo(pids.keySet());
    Pod superseded = new PodBuilder(leftover("it-pool-default--bids-0-old11", POOL, IMAGE)).editMetadata()
        .addToLabels("tributary.io/job", "default--bids").addToLabels("tributary.io/attempt", "0")
        .addToAnnotations("tributary.io/job", "default--bids").endMetadata().build();
    client.pods().inNamespace(NS).resource(superseded).create();

    try (Server after = new Server(port, Duration.ofSeconds(60))) {
      await("the next server takes the attempt over", () -> after.jobs.events(P, "bids").stream()
          .anyMatch(e -> e.message().startsWith("took over its running attempt (epoch " + epoch + ")")));
      await("the superseded attempt's pod is deleted", () -> !names(OURS).contains("it-pool-default--bids-0-old11"));
      assertThat(pids).as("the pods' worker processes ran through the takeover").allSatisfy((pod, pid) -> {
        assertThat(kubelet.process(pod).pid()).isEqualTo(pid);
        assertThat(kubelet.process(pod).isAlive()).isTrue();
      });
      assertThat(podNames("default--bids")).as("the same pods").isEqualTo(pids.keySet());
      awaitFinished(after.jobs, "bids");
      System.out.println(ControlTests.timeline(after.jobs.events(P, "bids")));
      assertThat(latestEpoch(after.jobs, "bids")).as("no new attempt").isEqualTo(epoch);
      Set<String> ran = new TreeSet<>(pids.keySet());
      ran.add("it-pool-default--bids-0-old11");
      assertThat(kubelet.commands.keySet()).as("no pod was created after the takeover")
          .containsExactlyInAnyOrderElementsOf(ran);
      assertThat(ControlTests.committed(out)).as("committed output").containsExactlyElementsOf(expected);
      assertThat(ControlTests.hidden(out)).as("nothing left in progress").isEmpty();
      await("the finished attempt's pods are deleted, and so their processes", () -> names(OURS).isEmpty()
          && kubelet.running().isEmpty());
      assertThat(kubelet.errors).as("the stand-in's errors").isEmpty();
    }
  }

  /** A control plane over {@code tmp/data} whose pool makes pods of up to two slots. */
  private final class Server implements AutoCloseable {
    final ControlPlaneServices services;
    final RemoteWorkerPool pool;
    final KubernetesWorkers workers;
    final JobManager jobs;

    Server(int port, Duration leftoverGrace) {
      services = EmbeddedServices.open(tmp.resolve("data"), ConnectorFactory.standard(),
          ConnectorPolicy.unrestricted(), new WorkersOption(WorkersOption.Kind.EXTERNAL, 0, 0, "127.0.0.1", port,
              Duration.ofSeconds(5)), new ClusterSecret(SECRET, false));
      pool = (RemoteWorkerPool) services.pool();
      workers = new KubernetesWorkers(pool, client, WorkerPodSettings.of(POOL, 2, IMAGE, "127.0.0.1:" + pool.port())
          .withNamespace(NS).withJavaOptions("-Xmx320m").withOwnerDeployment("tributary-server")
          .withResync(Duration.ofSeconds(1)).withLeftoverGrace(leftoverGrace));
      jobs = JobManager.open(ControlTests.settings().withActionTimeout(Duration.ofSeconds(60))
          .withReattachWait(Duration.ofSeconds(20)), services);
    }

    @Override
    public void close() {
      jobs.close(); // lets go of running attempts, for the next control plane
      workers.close();
      services.close();
    }
  }

  /**
   * Waits until job {@code name} runs an attempt after {@code after} on pods made for it — labelled
   * with the job and the attempt, owned by the server's Deployment, requesting 500m and 768Mi per slot,
   * {@code slots} slots in all — and its tasks run only there; returns the attempt.
   */
  private long awaitRunsOnItsPods(Server server, String name, long after, int slots) {
    String job = P + "--" + name;
    long[] epoch = {-1};
    await(name + " runs an attempt after " + after + " on its own " + slots + " slots", () -> {
      var view = server.jobs.get(P, name);
      if (view.observed() == ObservedState.FAILED) {
        throw new AssertionError(name + " failed: " + view.failure());
      }
      epoch[0] = latestEpoch(server.jobs, name);
      Set<String> placed = view.tasks().stream().map(TaskPlacement::worker).collect(Collectors.toSet());
      Set<String> pods = pods(job, epoch[0]).stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
      return view.observed() == ObservedState.RUNNING && epoch[0] > after && view.tasks().size() == slots
          && !placed.isEmpty() && pods.containsAll(placed);
    });
    List<Pod> pods = pods(job, epoch[0]);
    assertThat(pods).allSatisfy(p -> {
      assertThat(p.getMetadata().getLabels()).containsEntry("tributary.io/job", job)
          .containsEntry("tributary.io/attempt", String.valueOf(epoch[0]));
      assertThat(p.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(o -> assertThat(o.getName()).isEqualTo("tributary-server"));
      int n = Integer.parseInt(p.getMetadata().getAnnotations().get("tributary.io/slots"));
      var requests = p.getSpec().getContainers().get(0).getResources().getRequests();
      assertThat(requests.get("cpu")).isEqualTo(new Quantity(n == 2 ? "1" : "500m"));
      assertThat(requests.get("memory")).isEqualTo(new Quantity(768 * n + "Mi"));
    });
    assertThat(pods.stream().mapToInt(p -> Integer.parseInt(p.getMetadata().getAnnotations()
        .get("tributary.io/slots"))).sum()).as("pods of " + job + "#" + epoch[0]).isEqualTo(slots);
    return epoch[0];
  }

  /** The job's spec: bids per auction at parallelism 1 (up to 2), 24,000 bids at {@code rate} a second. */
  private static String bids(Path out, int rate) {
    return ControlTests.bidsPerAuction(out, rate, "300ms", "").replace("events: 20000", "events: 24000")
        .replace("parallelism: {initial: 2, min: 1, max: 2}", "parallelism: {initial: 1, min: 1, max: 2}");
  }

  /** A pod of {@code pool} running (at a control plane that is gone) no attempt of anything here. */
  private static Pod leftover(String name, String pool, String image) {
    return new PodBuilder().withNewMetadata().withName(name).withLabels(Map.of("app.kubernetes.io/name",
        "tributary-worker", "tributary.io/pool", pool, "tributary.io/attempt", "9"))
        .addToAnnotations("tributary.io/job", "default--gone").endMetadata().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("worker").withImage(image)
        .withArgs("worker", "--control-plane", "127.0.0.1:9", "--worker-id", name, "--slots", "1",
            "--cache-dir", "/var/cache/tributary")
        .addNewEnv().withName("TRIBUTARY_JAVA_OPTS").withValue("-Xmx128m").endEnv()
        .addNewEnv().withName("TRIBUTARY_CLUSTER_SECRET").withNewValueFrom().withNewSecretKeyRef()
        .withName("tributary-secrets").withKey("cluster-secret").endSecretKeyRef().endValueFrom().endEnv()
        .endContainer().endSpec().build();
  }

  private Set<String> names(Map<String, String> labels) {
    return client.pods().inNamespace(NS).withLabels(labels).list().getItems().stream()
        .map(p -> p.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
  }

  private Set<String> podNames(String job) {
    Map<String, String> labels = new TreeMap<>(OURS);
    labels.put("tributary.io/job", job);
    return names(labels);
  }

  private List<Pod> pods(String job, long attempt) {
    Map<String, String> labels = new TreeMap<>(OURS);
    labels.put("tributary.io/job", job);
    labels.put("tributary.io/attempt", String.valueOf(attempt));
    return client.pods().inNamespace(NS).withLabels(labels).list().getItems().stream()
        .sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList();
  }

  private void await(String what, java.util.function.BooleanSupplier condition) {
    try {
      WorkerProcesses.await(what, Duration.ofSeconds(60), condition);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; pods " + names(Map.of()) + "; stand-in errors " + kubelet.errors
          + "\n" + kubelet.logs(), e);
    }
  }

  private static void awaitFinished(JobManager jobs, String name) {
    try {
      WorkerProcesses.await(name + " finishes", Duration.ofSeconds(90), () -> {
        var view = jobs.get(P, name);
        if (view.observed() == ObservedState.FAILED) {
          throw new AssertionError("the job failed: " + view.failure());
        }
        return view.observed() == ObservedState.FINISHED;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; events:\n" + ControlTests.timeline(jobs.events(P, name)), e);
    }
  }

  /** Waits until a checkpoint completes in attempt {@code epoch} of the running job. */
  private static void awaitCheckpoint(JobManager jobs, String name, long epoch) {
    var before = jobs.get(P, name).lastCheckpoint();
    WorkerProcesses.await(name + " checkpoints in attempt " + epoch, Duration.ofSeconds(45), () -> {
      var view = jobs.get(P, name);
      assertThat(view.observed()).as(name + " still runs").isEqualTo(ObservedState.RUNNING);
      assertThat(latestEpoch(jobs, name)).isEqualTo(epoch);
      return view.lastCheckpoint() != null && view.lastCheckpoint().completedAt() != null
          && (before == null || view.lastCheckpoint().id() > before.id());
    });
  }

  private static long latestEpoch(JobManager jobs, String name) {
    long epoch = -1;
    for (JobEvent e : jobs.events(P, name)) {
      Matcher m = EPOCH.matcher(e.message());
      if (m.find()) {
        epoch = Math.max(epoch, Long.parseLong(m.group(1)));
      }
    }
    return epoch;
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (Files.exists(dir)) {
      try (var s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
