package io.tributary.worker.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.tributary.protocol.AttemptId;
import io.tributary.worker.remote.RemoteWorkerPool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pool's pods per attempt against fabric8's mock API server in CRUD mode: the pool is told what
 * attempts need and when they end, as a {@link RemoteWorkerPool} tells it (no kubelet: the pods never
 * run, so no worker registers; {@code KubernetesWorkersIT} in the api module runs them).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(60)
class KubernetesWorkersTest {
  static KubernetesClient client;
  static KubernetesMockServer server;

  private static final String NS = "tributary";
  private static final AttemptId BIDS_3 = new AttemptId("default--bids", 3);
  private static final AttemptId BIDS_4 = new AttemptId("default--bids", 4);
  private static final AttemptId CLICKS_1 = new AttemptId("default--clicks", 1);
  private static final Map<String, String> OURS = Map.of("app.kubernetes.io/name", "tributary-worker",
      "tributary.io/pool", "tributary");

  private final AtomicBoolean leading = new AtomicBoolean(true);
  private RemoteWorkerPool pool;
  private KubernetesWorkers workers;

  @BeforeEach
  void openPool() {
    pool = new RemoteWorkerPool(RemoteWorkerPool.Settings.of("kubernetes-workers-test-secret", "/tmp/unused")
        .withAccepting(leading::get));
    client.apps().deployments().inNamespace(NS).resource(new DeploymentBuilder().withNewMetadata()
        .withName("tributary-server").endMetadata().build()).create();
  }

  @AfterEach
  void closePool() {
    if (workers != null) {
      workers.close();
    }
    pool.close();
    client.pods().inNamespace(NS).delete();
    client.apps().deployments().inNamespace(NS).delete();
  }

  private KubernetesWorkers start(WorkerPodSettings s) {
    workers = new KubernetesWorkers(pool, client, s);
    return workers;
  }

  private static WorkerPodSettings settings() {
    return WorkerPodsTest.settings().withOwnerDeployment("tributary-server").withResync(Duration.ofMillis(300));
  }

  @Test
  void anAttemptGetsItsOwnPodsThatServeOnlyItAndGoWhenItIsReleased() {
    start(settings());
    assertThat(pool.capacity()).isSameAs(workers);
    workers.demand(BIDS_3, 5);
    workers.demand(CLICKS_1, 2);
    await("pods of 3 and 2 slots for bids, one of 2 for clicks",
        () -> slots(BIDS_3).equals(List.of(2, 3)) && slots(CLICKS_1).equals(List.of(2)));
    Pod bids = podsOf(BIDS_3).get(0);
    assertThat(bids.getMetadata().getLabels()).containsEntry("tributary.io/job", "default--bids")
        .containsEntry("tributary.io/attempt", "3").containsEntry("team", "data");
    assertThat(bids.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("Deployment");
      assertThat(o.getName()).isEqualTo("tributary-server");
      assertThat(o.getUid()).isEqualTo(client.apps().deployments().inNamespace(NS).withName("tributary-server").get()
          .getMetadata().getUid());
    });
    String clicks = podsOf(CLICKS_1).get(0).getMetadata().getName();
    assertThat(workers.serves(BIDS_3, bids.getMetadata().getName())).isTrue();
    assertThat(workers.serves(CLICKS_1, bids.getMetadata().getName())).as("another job's pod").isFalse();
    assertThat(workers.serves(BIDS_4, bids.getMetadata().getName())).as("another attempt's pod").isFalse();
    assertThat(workers.serves(CLICKS_1, clicks)).isTrue();

    workers.granted(BIDS_3);
    workers.released(BIDS_3); // it ended: a rescale, say; the next attempt asks anew
    workers.demand(BIDS_4, 1);
    await("the released attempt's pods go, the next one's come",
        () -> podsOf(BIDS_3).isEmpty() && slots(BIDS_4).equals(List.of(1)));
    assertThat(workers.serves(BIDS_3, bids.getMetadata().getName())).isFalse();
    assertThat(podsOf(CLICKS_1)).extracting(p -> p.getMetadata().getName()).containsExactly(clicks);
  }

  @Test
  void aFailedPodIsReplacedWhileItsAttemptWaitsAndNotOnceItHasItsSlots() {
    start(settings());
    workers.demand(BIDS_3, 8);
    await("two pods", () -> podsOf(BIDS_3).size() == 2);
    String evicted = podsOf(BIDS_3).get(0).getMetadata().getName();
    fail(evicted);
    await("the failed pod is replaced under a new name", () -> podsOf(BIDS_3).size() == 2
        && podsOf(BIDS_3).stream().noneMatch(p -> p.getMetadata().getName().equals(evicted)));
    assertThat(workers.failedPods()).isEqualTo(1);
    assertThat(workers.serves(BIDS_3, evicted)).isFalse();

    workers.granted(BIDS_3);
    String second = podsOf(BIDS_3).get(0).getMetadata().getName();
    fail(second);
    await("the failed pod is deleted", () -> podsOf(BIDS_3).size() == 1);
    assertThat(workers.failedPods()).isEqualTo(2);
    assertThat(podsOf(BIDS_3)).as("no replacement: the lost worker fails the attempt").hasSize(1);
  }

  @Test
  void leftoversOfOtherAttemptsGoWhenSupersededOrAfterTheGraceAndOtherPoolsPodsStay() {
    create("tributary-default--bids-2-old11", OURS, BIDS_4.job(), 2);
    create("tributary-default--gone-9-old22", OURS, "default--gone", 9);
    create("other-default--bids-1-other", Map.of("app.kubernetes.io/name", "tributary-worker",
        "tributary.io/pool", "other"), BIDS_4.job(), 1);
    start(settings().withLeftoverGrace(Duration.ofSeconds(2)));
    workers.demand(BIDS_4, 1);
    await("bids#2 is superseded by bids#4 at once", () -> !names().contains("tributary-default--bids-2-old11"));
    assertThat(names()).contains("tributary-default--gone-9-old22", "other-default--bids-1-other");
    await("the pod of no attempt here goes after the grace", () -> !names().contains("tributary-default--gone-9-old22"));
    assertThat(names()).contains("other-default--bids-1-other");
  }

  @Test
  void onlyTheLeaderMakesOrDeletesPodsAndDetachedAttemptsKeepTheirs() {
    leading.set(false);
    create("tributary-default--gone-9-old22", OURS, "default--gone", 9);
    start(settings().withLeftoverGrace(Duration.ZERO));
    workers.demand(CLICKS_1, 1);
    workers.demand(BIDS_3, 1);
    assertThat(stays(() -> ours().size() == 1)).as("a replica that does not lead makes and deletes nothing")
        .isTrue();

    leading.set(true);
    await("the leader makes the pods and deletes the leftover", () -> podsOf(CLICKS_1).size() == 1
        && podsOf(BIDS_3).size() == 1 && !names().contains("tributary-default--gone-9-old22"));
    workers.granted(CLICKS_1);
    // stepping down lets go of what runs: a reconcile that began while the replica led must keep its pods too
    workers.detached(CLICKS_1);
    assertThat(stays(() -> podsOf(CLICKS_1).size() == 1)).as("the detached attempt's pod stays for the next "
        + "leader, leftover grace or not").isTrue();
    leading.set(false);
    workers.released(BIDS_3); // not deployed: nothing of it runs on
    await("the released attempt's pods go even so", () -> podsOf(BIDS_3).isEmpty());
    assertThat(podsOf(CLICKS_1)).hasSize(1);

    leading.set(true); // leading again, and nothing claimed it: a leftover
    await("the pod nobody took over goes", () -> podsOf(CLICKS_1).isEmpty());
  }

  @Test
  void theLimitOfPodsHoldsAnAttemptBackAndClosingDeletesTheWaitingAttemptsPods() {
    start(settings().withMaxPods(2));
    workers.demand(BIDS_3, 6);
    await("two pods", () -> podsOf(BIDS_3).size() == 2);
    workers.demand(CLICKS_1, 1);
    assertThat(stays(() -> podsOf(CLICKS_1).isEmpty())).as("no third pod").isTrue();
    assertThat(workers.shortage(CLICKS_1)).isEqualTo("the pool runs its limit of 2 worker pods "
        + "(--workers kubernetes:2); stop a job, or raise the limit");
    assertThat(workers.shortage(BIDS_3)).isEqualTo("its worker pods did not all start and register in time "
        + "(kubectl -n tributary get pods -l tributary.io/pool=tributary,tributary.io/attempt=3)");

    workers.released(BIDS_3);
    await("clicks gets its pod once bids' went", () -> podsOf(BIDS_3).isEmpty() && podsOf(CLICKS_1).size() == 1);
    workers.close();
    assertThat(ours()).as("the pods of the attempt still waiting go with the pool").isEmpty();
  }

  @Test
  void whyTheApiRefusedThePodsEndsTheShortage() {
    String quota = "pods \"x\" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: "
        + "requests.cpu=8, limited: requests.cpu=8";
    server.expect().post().withPath("/api/v1/namespaces/quota-full/pods").andReturn(403, new StatusBuilder()
        .withStatus("Failure").withCode(403).withReason("Forbidden").withMessage(quota).build()).always();
    start(settings().withNamespace("quota-full").withOwnerDeployment(null));
    workers.demand(BIDS_3, 2);
    await("the refusal is known", () -> workers.shortage(BIDS_3).startsWith("the Kubernetes API"));
    assertThat(workers.shortage(BIDS_3)).isEqualTo("the Kubernetes API refused its worker pods: " + quota
        + " (HTTP 403)");
  }

  @Test
  void anApiThatRefusesToListThePodsIsNamedWithTheReason() throws Exception {
    start(settings().withNamespace("locked").withOwnerDeployment(null)).close();
    workers = null;
    String list = server.getRequestCount() > 0 ? firstListOf("locked") : null;
    assertThat(list).as("the pods' list request").isNotNull();
    server.expect().get().withPath(list).andReturn(403, new StatusBuilder()
        .withStatus("Failure").withCode(403).withReason("Forbidden").withMessage("pods is forbidden: no").build())
        .always();
    assertThatThrownBy(() -> start(settings().withNamespace("locked").withOwnerDeployment(null)))
        .isInstanceOf(KubernetesWorkers.KubernetesUnavailableException.class)
        .hasMessageStartingWith("worker pods in namespace locked: the Kubernetes API at " + client.getMasterUrl()
            + " refused to list them (HTTP 403: ")
        .hasMessageContaining("pods is forbidden: no")
        .hasMessageEndingWith("; run the server in the cluster, with a service account that may manage pods there, "
            + "or point KUBECONFIG at the cluster")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  /** The path (with its query) of the first request that listed the pods of {@code namespace}. */
  private static String firstListOf(String namespace) throws InterruptedException {
    io.fabric8.mockwebserver.http.RecordedRequest r;
    while ((r = server.takeRequest(1, java.util.concurrent.TimeUnit.SECONDS)) != null) {
      if ("GET".equals(r.getMethod()) && r.getPath().startsWith("/api/v1/namespaces/" + namespace + "/pods?")
          && !r.getPath().contains("watch=true")) {
        return r.getPath();
      }
    }
    return null;
  }

  @Test
  void anApiThatCannotBeReachedIsNamedWithTheReason() throws Exception {
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closed + "/";
    try (KubernetesClient nowhere = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
        new io.fabric8.kubernetes.client.ConfigBuilder().withMasterUrl(url).withRequestRetryBackoffLimit(0).build())
        .build()) {
      assertThatThrownBy(() -> new KubernetesWorkers(pool, nowhere, settings().withOwnerDeployment(null)))
          .isInstanceOf(KubernetesWorkers.KubernetesUnavailableException.class)
          .hasMessageStartingWith("worker pods in namespace " + NS + ": the Kubernetes API at " + url
              + " cannot be reached (")
          .hasMessageContaining("; run the server in the cluster");
    }
  }

  @Test
  void aMissingOwnerDeploymentIsNamed() {
    assertThatThrownBy(() -> start(settings().withOwnerDeployment("nope"))).isInstanceOf(
        IllegalArgumentException.class).hasMessage("the owner Deployment nope of the worker pods does not exist in "
        + "namespace tributary");
    assertThat(pool.capacity()).as("the pool keeps its shared workers").isNotInstanceOf(KubernetesWorkers.class);
  }

  private static void fail(String pod) {
    client.pods().inNamespace(NS).withName(pod).editStatus(p -> new PodBuilder(p).editOrNewStatus()
        .withPhase("Failed").withReason("Evicted").endStatus().build());
  }

  private static void create(String name, Map<String, String> labels, String job, long attempt) {
    client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withLabels(labels)
        .addToLabels("tributary.io/attempt", String.valueOf(attempt)).addToAnnotations("tributary.io/job", job)
        .endMetadata().withNewSpec().addNewContainer().withName("worker").withImage("old").endContainer().endSpec()
        .build()).create();
  }

  private static List<String> names() {
    return client.pods().inNamespace(NS).list().getItems().stream().map(p -> p.getMetadata().getName()).sorted()
        .toList();
  }

  private static List<Pod> ours() {
    return client.pods().inNamespace(NS).withLabels(OURS).list().getItems();
  }

  private static List<Pod> podsOf(AttemptId a) {
    return ours().stream().filter(p -> a.equals(WorkerPods.attemptOf(p)))
        .sorted(java.util.Comparator.comparing(p -> p.getMetadata().getName())).toList();
  }

  private static List<Integer> slots(AttemptId a) {
    return podsOf(a).stream().map(WorkerPods::slotsOf).sorted().toList();
  }

  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20s: " + what + "; pods " + names());
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
  }

  /** Whether {@code condition} holds throughout three resyncs of the pool (and the informer's events). */
  private static boolean stays(BooleanSupplier condition) {
    long until = System.nanoTime() + Duration.ofMillis(1000).toNanos();
    while (System.nanoTime() < until) {
      if (!condition.getAsBoolean()) {
        return false;
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    return true;
  }
}
