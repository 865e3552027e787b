package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
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
import io.tributary.worker.kubernetes.KubernetesWorkers;
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
 * The Kubernetes worker pool with real worker processes; only the Kubernetes API is a stand-in
 * (fabric8's mock API server in CRUD mode, {@link MockKubernetesApi}), with a {@link KubeletStandIn} that runs each pod the pool
 * creates as a worker process from the pod's own spec. A keyed window job over a bounded Nexmark
 * source writes files: the pool starts with two pods (after deleting a previous instance's leftover),
 * is scaled to three, one busy pod is evicted (its process killed with {@code kill -9}, the pod marked
 * Failed) and replaced, the pool is scaled back to two, and the committed output is exactly that of a
 * failure-free run — no gap, no duplicate. Closing the pool deletes its pods, and so their processes.
 */
class KubernetesWorkersIT {
  private static final String P = "default";
  private static final String NS = "tributary";
  private static final String IMAGE = "registry.example/tributary:it";
  private static final String SECRET = "kubernetes-workers-it-cluster-secret";
  private static final Pattern EPOCH = Pattern.compile("run started \\(epoch (\\d+)\\)");
  private static final Map<String, String> OURS = Map.of("app.kubernetes.io/name", "tributary-worker",
      "tributary.io/server", "it-server");

  @TempDir
  Path tmp;

  private MockKubernetesApi api;
  private KubernetesClient client;

  @BeforeEach
  void startApi() {
    api = MockKubernetesApi.start(tmp.resolve("mock-api.log"));
    client = api.client(NS);
    client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("tributary-secrets")
        .endMetadata().addToData("cluster-secret", Base64.getEncoder().encodeToString(
            SECRET.getBytes(StandardCharsets.UTF_8))).build()).create();
  }

  @AfterEach
  void stopApi() {
    client.close();
    api.close();
  }

  @Timeout(150)
  @Test
  void podsRunTheJobThroughScalingAndAnEvictionWithExactOutput() throws Exception {
    Path out = tmp.resolve("out");
    String spec = ControlTests.bidsPerAuction(out, 1500, "300ms", "").replace("events: 20000", "events: 24000");
    List<String> expected = ControlTests.reference(
        ControlTests.bidsPerAuction(out, 0, "300ms", "").replace("events: 20000", "events: 24000"), out);
    deleteTree(out);
    try (KubeletStandIn kubelet = new KubeletStandIn(client, NS, IMAGE, tmp.resolve("kubelet"))) {
      // a previous instance's worker pod, running (at a control plane that is gone), and another server's pod
      client.pods().inNamespace(NS).resource(leftover("it-server-w-1-old")).create();
      client.pods().inNamespace(NS).resource(new PodBuilder(leftover("other-w-1-abc")).editMetadata()
          .addToLabels("tributary.io/server", "other").endMetadata().editSpec().editFirstContainer()
          .withImage("someone/else:1").endContainer().endSpec().build()).create();
      await("the leftover runs", kubelet, () -> kubelet.running().contains("it-server-w-1-old"));
      Process leftover = kubelet.process("it-server-w-1-old");

      ControlPlaneServices services = EmbeddedServices.open(tmp.resolve("data"), ConnectorFactory.standard(),
          ConnectorPolicy.unrestricted(), new WorkersOption(WorkersOption.Kind.EXTERNAL, 0, 0, "127.0.0.1", 0,
              Duration.ofSeconds(5)), new ClusterSecret(SECRET, false));
      RemoteWorkerPool pool = (RemoteWorkerPool) services.pool();
      try (JobManager jobs = JobManager.open(ControlTests.settings().withActionTimeout(Duration.ofSeconds(60)),
          services)) {
        KubernetesWorkers workers = new KubernetesWorkers(pool, client, KubernetesWorkers.Settings.of("it-server", 2, 2,
            IMAGE, "127.0.0.1:" + pool.port()).withNamespace(NS).withJavaOptions("-Xmx384m")
            .withResync(Duration.ofSeconds(1)));
        try {
          assertThat(names(OURS)).as("the leftover pod is deleted at start").doesNotContain("it-server-w-1-old");
          await("the leftover's process is killed", kubelet, () -> !leftover.isAlive());
          awaitPool("two worker pods register", kubelet, pool, workers, 2);
          jobs.apply(P, "bids", spec, null);
          int epoch = awaitRunningWithACheckpoint(jobs, "bids");

          workers.scale(3);
          awaitPool("a third worker pod registers", kubelet, pool, workers, 3);

          Set<String> before = registered(pool);
          String victim = pool.workers().stream().filter(w -> w.freeSlots() < w.slots())
              .map(RemoteWorkerPool.WorkerInfo::id).findFirst().orElseThrow(() -> new AssertionError(
                  "no worker pod runs tasks of the job: " + pool.workers()));
          System.out.println("evicting pod " + victim + " in epoch " + epoch);
          kubelet.evict(victim);
          await("the evicted pod is deleted and replaced", kubelet, () -> {
            Set<String> now = registered(pool);
            return !names(OURS).contains(victim) && now.size() == 3 && !now.contains(victim)
                && now.stream().anyMatch(w -> !before.contains(w)) && now.equals(livePods(workers));
          });
          assertThat(workers.replacements()).isGreaterThanOrEqualTo(1);
          await("the job restarts after the eviction", kubelet, () -> latestEpoch(jobs, "bids") > epoch
              || jobs.get(P, "bids").observed() == ObservedState.FINISHED);

          workers.scale(2);
          awaitPool("the pool scales down to two", kubelet, pool, workers, 2);

          awaitFinished(jobs, "bids");
          System.out.println(ControlTests.timeline(jobs.events(P, "bids")));
          assertThat(ControlTests.committed(out)).as("committed output").containsExactlyElementsOf(expected);
          assertThat(ControlTests.hidden(out)).as("nothing left in progress").isEmpty();
          assertThat(kubelet.errors).as("the stand-in's errors").isEmpty();
          // what ran is what the pod said: the worker command, its id the pod's name, the pod IP
          List<String> cmd = kubelet.commands.get(victim);
          assertThat(cmd.subList(cmd.indexOf("io.tributary.cli.Main") + 1, cmd.size())).containsSubsequence(
              "worker", "--control-plane", "127.0.0.1:" + pool.port(), "--worker-id", victim, "--slots", "2",
              "--advertise", "127.0.0.1");
        } finally {
          workers.close();
        }
        assertThat(names(OURS)).as("closing the pool deletes its pods").isEmpty();
        await("closing the pool ends its worker processes", kubelet, () -> kubelet.running().isEmpty());
        assertThat(names(Map.of("tributary.io/server", "other"))).as("another server's pod stays")
            .containsExactly("other-w-1-abc");
      }
    }
  }

  private static Pod leftover(String name) {
    return new PodBuilder().withNewMetadata().withName(name).withLabels(OURS).endMetadata().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("worker").withImage(IMAGE)
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

  private static Set<String> registered(RemoteWorkerPool pool) {
    return pool.workers().stream().map(RemoteWorkerPool.WorkerInfo::id).collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> livePods(KubernetesWorkers workers) {
    return new TreeSet<>(workers.pods(true).keySet());
  }

  /** Waits until exactly {@code n} pods live, each Running and registered as a worker under its name. */
  private void awaitPool(String what, KubeletStandIn kubelet, RemoteWorkerPool pool, KubernetesWorkers workers,
      int n) {
    await(what, kubelet, () -> {
      Map<String, Pod> live = workers.pods(true);
      return live.size() == n && names(OURS).size() == n && registered(pool).equals(live.keySet())
          && live.values().stream().allMatch(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())
              && "127.0.0.1".equals(p.getStatus().getPodIP()));
    });
  }

  private static void await(String what, KubeletStandIn kubelet, java.util.function.BooleanSupplier condition) {
    try {
      WorkerProcesses.await(what, Duration.ofSeconds(45), condition);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; stand-in errors " + kubelet.errors + "\n" + kubelet.logs(), e);
    }
  }

  private static void awaitFinished(JobManager jobs, String name) {
    try {
      WorkerProcesses.await(name + " finishes", Duration.ofSeconds(60), () -> {
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

  /** Waits until the job RUNs and completed a checkpoint in its current epoch; returns the epoch. */
  private static int awaitRunningWithACheckpoint(JobManager jobs, String name) {
    int[] epoch = {-1};
    WorkerProcesses.await(name + " runs and checkpoints", Duration.ofSeconds(45), () -> {
      var view = jobs.get(P, name);
      if (view.observed() == ObservedState.FAILED) {
        throw new AssertionError("the job failed: " + view.failure() + "\n" + ControlTests.timeline(jobs.events(P, name)));
      }
      epoch[0] = latestEpoch(jobs, name);
      return view.observed() == ObservedState.RUNNING && view.lastCheckpoint() != null
          && view.lastCheckpoint().completedAt() != null;
    });
    return epoch[0];
  }

  private static int latestEpoch(JobManager jobs, String name) {
    int epoch = -1;
    for (JobEvent e : jobs.events(P, name)) {
      Matcher m = EPOCH.matcher(e.message());
      if (m.find()) {
        epoch = Math.max(epoch, Integer.parseInt(m.group(1)));
      }
    }
    return epoch;
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (Files.exists(dir)) {
      try (var s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
