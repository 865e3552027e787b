package io.tributary.worker.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.tributary.worker.remote.RemoteWorkerPool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pod spec the pool builds, and its reconciling against fabric8's mock API server in CRUD mode
 * (no kubelet: the pods never run; {@code KubernetesWorkersIT} in the api module runs them).
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesWorkersTest {
  static KubernetesClient client;

  private static final String NS = "tributary";
  private RemoteWorkerPool pool;

  @BeforeEach
  void openPool() {
    pool = new RemoteWorkerPool(RemoteWorkerPool.Settings.of("kubernetes-workers-test-secret", "/tmp/unused"));
  }

  @AfterEach
  void closePool() {
    pool.close();
    client.pods().inNamespace(NS).delete();
  }

  private static KubernetesWorkers.Settings settings(int count) {
    return KubernetesWorkers.Settings.of("server-a", count, 3, "registry.example/tributary:1.2", "10.0.0.5:7077")
        .withNamespace(NS).withServiceAccount("tributary-worker").withSecret("my-secrets", "cluster-secret")
        .withResources("500m", "768Mi").withEnv(Map.of("TRIBUTARY_S3_ENDPOINT", "http://minio:9000"))
        .withLabels(Map.of("team", "data")).withResync(Duration.ofMillis(500));
  }

  @Test
  void thePodSpecRunsTheWorkerWithItsSlotsSecretAndPodIp() {
    Pod pod = KubernetesWorkers.pod(settings(2), NS, "server-a-w-7-abcde", new OwnerReferenceBuilder()
        .withApiVersion("v1").withKind("Pod").withName("server-a").withUid("uid-1").build());
    assertThat(pod.getMetadata().getName()).isEqualTo("server-a-w-7-abcde");
    assertThat(pod.getMetadata().getNamespace()).isEqualTo(NS);
    assertThat(pod.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "app.kubernetes.io/name", "tributary-worker", "tributary.io/server", "server-a", "team", "data"));
    assertThat(pod.getMetadata().getAnnotations()).containsEntry("tributary.io/slots", "3");
    assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("Pod");
      assertThat(o.getName()).isEqualTo("server-a");
      assertThat(o.getUid()).isEqualTo("uid-1");
      assertThat(o.getApiVersion()).isEqualTo("v1");
    });
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("tributary-worker");
    Container c = pod.getSpec().getContainers().get(0);
    assertThat(pod.getSpec().getContainers()).hasSize(1);
    assertThat(c.getImage()).isEqualTo("registry.example/tributary:1.2");
    assertThat(c.getCommand()).as("the image's entrypoint (bin/tributary) runs").isEmpty();
    assertThat(c.getArgs()).containsExactly("worker", "--control-plane", "10.0.0.5:7077", "--worker-id",
        "server-a-w-7-abcde", "--slots", "3", "--bind", "0.0.0.0", "--advertise", "$(POD_IP)", "--data-port", "7078",
        "--cache-dir", "/var/cache/tributary");
    assertThat(c.getPorts()).singleElement().satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(7078));
    // 3 slots: 3 x 500m CPU, 3 x 768Mi
    assertThat(c.getResources().getRequests()).containsEntry("cpu", new Quantity("1500m"))
        .containsEntry("memory", new Quantity("2304Mi"));
    assertThat(c.getResources().getLimits()).containsOnlyKeys("memory").containsEntry("memory", new Quantity("2304Mi"));
    EnvVar ip = env(c, "POD_IP");
    assertThat(ip.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("status.podIP");
    assertThat(c.getEnv().indexOf(ip)).as("POD_IP is defined before anything refers to it").isZero();
    EnvVar secret = env(c, "TRIBUTARY_CLUSTER_SECRET");
    assertThat(secret.getValue()).as("the secret never is in the spec").isNull();
    assertThat(secret.getValueFrom().getSecretKeyRef().getName()).isEqualTo("my-secrets");
    assertThat(secret.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("cluster-secret");
    assertThat(env(c, "TRIBUTARY_JAVA_OPTS").getValue()).isEqualTo("-XX:MaxRAMPercentage=70");
    assertThat(env(c, "TRIBUTARY_S3_ENDPOINT").getValue()).isEqualTo("http://minio:9000");
    assertThat(c.getVolumeMounts()).singleElement().satisfies(m -> {
      assertThat(m.getMountPath()).isEqualTo("/var/cache/tributary");
      assertThat(pod.getSpec().getVolumes()).singleElement().satisfies(v -> {
        assertThat(v.getName()).isEqualTo(m.getName());
        assertThat(v.getEmptyDir()).isNotNull();
      });
    });
  }

  @Test
  void resourcesAndNamesFromSlotsAndIds() {
    assertThat(KubernetesWorkers.cpuMillis("2")).isEqualTo(2000);
    assertThat(KubernetesWorkers.cpuMillis("0.25")).isEqualTo(250);
    assertThat(KubernetesWorkers.cpuMillis("250m")).isEqualTo(250);
    Pod one = KubernetesWorkers.pod(settings(1).withResources("1", "1Gi"), NS, "w", null);
    assertThat(one.getSpec().getContainers().get(0).getResources().getRequests()).containsEntry("cpu", new Quantity("3"))
        .containsEntry("memory", new Quantity("3072Mi"));
    assertThat(one.getMetadata().getOwnerReferences()).isEmpty();
    assertThat(KubernetesWorkers.podNamePrefix("Tributary_Server.7d9f-x")).isEqualTo("tributary-server-7d9f-x-w-");
    assertThatThrownBy(() -> settings(1).withResources("lots", "1Gi")).hasMessageContaining("CPU quantity");
    assertThatThrownBy(() -> settings(1).withResources("1", "much")).hasMessageContaining("memory quantity");
    assertThatThrownBy(() -> settings(1).withLabels(Map.of("tributary.io/server", "x")))
        .hasMessageContaining("the pool's own");
    assertThatThrownBy(() -> KubernetesWorkers.Settings.of("bad id!", 1, 1, "i", "h:1")).hasMessageContaining("label");
    assertThatThrownBy(() -> KubernetesWorkers.Settings.of("s", 1, 1, "i", "no-port"))
        .hasMessageContaining("host:port");
  }

  @Timeout(60)
  @Test
  void keepsTheCountReplacesFailedAndDeletedPodsDeletesLeftoversAndItsPodsOnClose() {
    // a previous instance's pods, and another server's
    create("server-a-w-1-old11", Map.of("app.kubernetes.io/name", "tributary-worker", "tributary.io/server", "server-a"));
    create("server-b-w-1-other", Map.of("app.kubernetes.io/name", "tributary-worker", "tributary.io/server", "server-b"));
    client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("tributary-server-0")
        .endMetadata().withNewSpec().addNewContainer().withName("s").withImage("i").endContainer().endSpec().build())
        .create();
    KubernetesWorkers workers = new KubernetesWorkers(pool, client, settings(2).withOwnerPod("tributary-server-0"));
    try {
      assertThat(names()).as("the leftover is deleted at start").doesNotContain("server-a-w-1-old11")
          .contains("server-b-w-1-other");
      await("two pods", () -> ours().size() == 2);
      Pod first = client.pods().inNamespace(NS).withName(ours().get(0)).get();
      assertThat(first.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(o -> assertThat(o.getName()).isEqualTo("tributary-server-0"));

      // a pod that failed (an eviction) is deleted and replaced under a new name
      String evicted = ours().get(0);
      client.pods().inNamespace(NS).withName(evicted).editStatus(p -> new PodBuilder(p).editOrNewStatus()
          .withPhase("Failed").withReason("Evicted").endStatus().build());
      await("the failed pod is replaced", () -> !ours().contains(evicted) && ours().size() == 2);
      assertThat(workers.replacements()).isEqualTo(1);

      // one deleted by someone else is replaced
      String deleted = ours().get(1);
      client.pods().inNamespace(NS).withName(deleted).delete();
      await("the deleted pod is replaced", () -> !ours().contains(deleted) && ours().size() == 2);

      workers.scale(4);
      await("four pods", () -> ours().size() == 4);
      workers.scale(1);
      await("one pod", () -> ours().size() == 1);
      assertThat(workers.desiredCount()).isEqualTo(1);
      assertThat(Set.copyOf(ours())).hasSize(1);
    } finally {
      workers.close();
    }
    assertThat(ours()).as("closing deletes the pool's pods").isEmpty();
    assertThat(names()).contains("server-b-w-1-other", "tributary-server-0");
  }

  private static void create(String name, Map<String, String> labels) {
    client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withLabels(labels)
        .endMetadata().withNewSpec().addNewContainer().withName("worker").withImage("old").endContainer().endSpec()
        .build()).create();
  }

  private static List<String> names() {
    return client.pods().inNamespace(NS).list().getItems().stream().map(p -> p.getMetadata().getName()).sorted()
        .toList();
  }

  private static List<String> ours() {
    return client.pods().inNamespace(NS).withLabels(Map.of("app.kubernetes.io/name", "tributary-worker",
        "tributary.io/server", "server-a")).list().getItems().stream().map(p -> p.getMetadata().getName()).sorted()
        .toList();
  }

  private static EnvVar env(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no env " + name + " in " + c.getEnv()));
  }

  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20s: " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
  }
}
