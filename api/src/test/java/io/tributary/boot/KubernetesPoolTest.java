package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tributary.cluster.MockKubernetesApi;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.worker.kubernetes.KubernetesWorkers;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --workers kubernetes:N}: the option, the configuration keys, and the pool the services open. */
class KubernetesPoolTest {
  @TempDir
  Path dir;

  private static final Duration HB = Duration.ofSeconds(5);

  @Test
  void theOptionParsesKubernetesAndACount() {
    WorkersOption three = WorkersOption.parse("kubernetes:3", 2, "0.0.0.0", null, HB);
    assertThat(three.kind()).isEqualTo(WorkersOption.Kind.KUBERNETES);
    assertThat(three.count()).isEqualTo(3);
    assertThat(three.slots()).isEqualTo(2);
    assertThat(three.port()).isEqualTo(WorkersOption.DEFAULT_PORT);
    assertThat(WorkersOption.parse("Kubernetes", 4, "0.0.0.0", 7000, HB).count()).isEqualTo(1);
    assertThat(WorkersOption.parse("kubernetes:0", 4, "0.0.0.0", 7000, HB).port()).isEqualTo(7000);
    assertThatThrownBy(() -> WorkersOption.parse("kubernetes:many", 2, "0.0.0.0", null, HB))
        .hasMessageContaining("kubernetes:N needs N between 0 and 256");
    assertThatThrownBy(() -> WorkersOption.parse("pods", 2, "0.0.0.0", null, HB))
        .hasMessageContaining("in-process, local:N, external or kubernetes:N");
  }

  @Test
  void theKeysComeFromTheFileAndTheEnvironment() throws Exception {
    Path file = dir.resolve("tributary.yaml");
    Files.writeString(file, """
        tributary:
          workers:
            kubernetes:
              image: registry.example/tributary:1.0
              namespace: jobs
              service-account: tributary-worker
              cpu-per-slot: 250m
              labels: "team=data, tier=batch"
        """);
    ServerConfiguration c = ServerConfiguration.load(file, Map.of("TRIBUTARY_WORKERS_KUBERNETES_SECRET_NAME", "mine",
        "TRIBUTARY_WORKERS_KUBERNETES_DATA_PORT", "7100", "TRIBUTARY_WORKERS_KUBERNETES_OWNER_POD", "server-0"));
    assertThat(c.workerPods()).containsEntry("image", "registry.example/tributary:1.0").containsEntry("namespace", "jobs")
        .containsEntry("secret-name", "mine").containsEntry("data-port", "7100");
    KubernetesWorkers.Settings s = KubernetesPool.settings(7077,
        WorkersOption.parse("kubernetes:2", 3, "0.0.0.0", null, HB), c, Map.of());
    assertThat(s.image()).isEqualTo("registry.example/tributary:1.0");
    assertThat(s.namespace()).isEqualTo("jobs");
    assertThat(s.serviceAccount()).isEqualTo("tributary-worker");
    assertThat(s.count()).isEqualTo(2);
    assertThat(s.slots()).isEqualTo(3);
    assertThat(s.secretName()).isEqualTo("mine");
    assertThat(s.secretKey()).isEqualTo("cluster-secret");
    assertThat(s.cpuPerSlot()).isEqualTo("250m");
    assertThat(s.memoryPerSlot()).isEqualTo("768Mi");
    assertThat(s.dataPort()).isEqualTo(7100);
    assertThat(s.ownerPod()).isEqualTo("server-0");
    assertThat(s.extraLabels()).containsExactlyInAnyOrderEntriesOf(Map.of("team", "data", "tier", "batch"));
    assertThat(s.controlPlane()).as("this host's address at the worker port").endsWith(":7077");
    assertThat(s.javaOptions()).isEqualTo("-XX:MaxRAMPercentage=70");
    assertThat(KubernetesPool.settings(7077, WorkersOption.parse("kubernetes", 1, "0.0.0.0", null, HB), c,
        Map.of("TRIBUTARY_WORKER_JAVA_OPTS", "-Xmx3g")).javaOptions()).isEqualTo("-Xmx3g");

    assertThat(ServerConfiguration.KEYS).contains("tributary.workers.kubernetes.image",
        "tributary.workers.kubernetes.secret-key", "tributary.workers.kubernetes.memory-per-slot");
    assertThatThrownBy(() -> KubernetesPool.settings(7077, WorkersOption.parse("kubernetes", 1, "0.0.0.0", null, HB),
        ServerConfiguration.load(null, Map.of()), Map.of()))
        .hasMessageContaining("tributary.workers.kubernetes.image (TRIBUTARY_WORKERS_KUBERNETES_IMAGE)");
    assertThatThrownBy(() -> ServerConfiguration.load(null, Map.of("TRIBUTARY_WORKERS_KUBERNETES_DATA_PORT", "x")))
        .hasMessageContaining("tributary.workers.kubernetes.data-port must be a port");
    assertThatThrownBy(() -> ServerConfiguration.load(null, Map.of("TRIBUTARY_WORKERS_KUBERNETES_LABELS", "a=b=c")))
        .hasMessageContaining("key=value pairs");
    assertThatThrownBy(() -> KubernetesPool.settings(7077, WorkersOption.parse("kubernetes", 1, "0.0.0.0", null, HB),
        ServerConfiguration.load(null, Map.of("TRIBUTARY_WORKERS_KUBERNETES_IMAGE", "i",
            "TRIBUTARY_WORKERS_KUBERNETES_MEMORY_PER_SLOT", "lots")), Map.of()))
        .hasMessageContaining("--workers kubernetes (tributary.workers.kubernetes.*): a memory quantity");
  }

  /**
   * The services of {@code --workers kubernetes:2} create two worker pods through a client configured
   * from the environment (here: the system properties that point it at the mock API server), and
   * delete them when they close.
   */
  @Test
  void theServicesStartThePodsAndDeleteThemOnClose() {
    try (MockKubernetesApi api = MockKubernetesApi.start(dir.resolve("mock-api.log"));
        KubernetesClient client = api.client("jobs")) {
      Map<String, String> props = Map.of("kubernetes.master", api.url(), "kubernetes.trust.certificates", "true",
          "kubernetes.auth.tryKubeConfig", "false", "kubernetes.auth.tryServiceAccount", "false",
          "kubernetes.namespace", "default");
      props.forEach(System::setProperty);
      try {
        ServerConfiguration config = ServerConfiguration.load(null, Map.of("TRIBUTARY_WORKERS_KUBERNETES_IMAGE",
            "registry.example/tributary:1.0", "TRIBUTARY_WORKERS_KUBERNETES_NAMESPACE", "jobs",
            "TRIBUTARY_WORKERS_KUBERNETES_SERVER_ID", "wiring-test", "TRIBUTARY_WORKERS_KUBERNETES_CONTROL_PLANE",
            "10.1.2.3"));
        ControlPlaneServices services = EmbeddedServices.open(dir.resolve("data"), ConnectorFactory.standard(),
            ConnectorPolicy.unrestricted(), new WorkersOption(WorkersOption.Kind.KUBERNETES, 2, 3, "127.0.0.1", 0, HB),
            new ClusterSecret("kubernetes-pool-test-cluster-secret", false), config);
        List<Pod> pods;
        int port = ((io.tributary.worker.remote.RemoteWorkerPool) services.pool()).port();
        try {
          await(() -> client.pods().inNamespace("jobs").list().getItems().size() == 2);
          pods = client.pods().inNamespace("jobs").list().getItems();
        } finally {
          services.close();
        }
        assertThat(pods).allSatisfy(p -> {
          assertThat(p.getMetadata().getLabels()).containsEntry("tributary.io/server", "wiring-test")
              .containsEntry("app.kubernetes.io/name", "tributary-worker");
          assertThat(p.getSpec().getContainers().get(0).getArgs()).containsSubsequence("--control-plane",
              "10.1.2.3:" + port, "--slots", "3");
        });
        assertThat(client.pods().inNamespace("jobs").list().getItems()).as("closing the services deletes the pods")
            .isEmpty();
      } finally {
        props.keySet().forEach(System::clearProperty);
      }
    }
  }

  private static void await(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20s");
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
  }
}
