package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tributary.cluster.MockKubernetesApi;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.protocol.AttemptId;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.worker.kubernetes.KubernetesWorkers;
import io.tributary.worker.kubernetes.WorkerPodSettings;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --workers kubernetes[:N]}: the option, the configuration keys, and the pool the services open. */
class KubernetesPoolTest {
  @TempDir
  Path dir;

  private static final Duration HB = Duration.ofSeconds(5);

  @Test
  void theOptionParsesKubernetesAndALimitOfPods() {
    WorkersOption three = WorkersOption.parse("kubernetes:3", 2, "0.0.0.0", null, HB);
    assertThat(three.kind()).isEqualTo(WorkersOption.Kind.KUBERNETES);
    assertThat(three.count()).as("at most three pods at once").isEqualTo(3);
    assertThat(three.slots()).isEqualTo(2);
    assertThat(three.port()).isEqualTo(WorkersOption.DEFAULT_PORT);
    assertThat(WorkersOption.parse("Kubernetes", 4, "0.0.0.0", 7000, HB).count()).as("no limit").isZero();
    assertThat(WorkersOption.parse("kubernetes", 4, "0.0.0.0", 7000, HB).port()).isEqualTo(7000);
    for (String wrong : List.of("kubernetes:many", "kubernetes:0", "kubernetes:-1", "kubernetes:4097")) {
      assertThatThrownBy(() -> WorkersOption.parse(wrong, 2, "0.0.0.0", null, HB)).hasMessage("--workers kubernetes:N "
          + "needs N, the most worker pods at once (each job's attempt gets pods of its own), between 1 and 4096, not '"
          + wrong + "'; --workers kubernetes sets no limit");
    }
    assertThatThrownBy(() -> WorkersOption.parse("pods", 2, "0.0.0.0", null, HB))
        .hasMessageContaining("in-process, local:N, external or kubernetes[:N]");
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
        "TRIBUTARY_WORKERS_KUBERNETES_DATA_PORT", "7100", "TRIBUTARY_WORKERS_KUBERNETES_OWNER_DEPLOYMENT",
        "tributary-server"));
    assertThat(c.workerPods()).containsEntry("image", "registry.example/tributary:1.0").containsEntry("namespace", "jobs")
        .containsEntry("secret-name", "mine").containsEntry("data-port", "7100");
    WorkerPodSettings s = KubernetesPool.settings(7077,
        WorkersOption.parse("kubernetes:2", 3, "0.0.0.0", null, HB), c, Map.of());
    assertThat(s.image()).isEqualTo("registry.example/tributary:1.0");
    assertThat(s.namespace()).isEqualTo("jobs");
    assertThat(s.serviceAccount()).isEqualTo("tributary-worker");
    assertThat(s.maxPods()).isEqualTo(2);
    assertThat(s.slotsPerPod()).isEqualTo(3);
    assertThat(s.secretName()).isEqualTo("mine");
    assertThat(s.secretKey()).isEqualTo("cluster-secret");
    assertThat(s.cpuPerSlot()).isEqualTo("250m");
    assertThat(s.memoryPerSlot()).isEqualTo("768Mi");
    assertThat(s.dataPort()).isEqualTo(7100);
    assertThat(s.ownerDeployment()).isEqualTo("tributary-server");
    assertThat(s.poolId()).as("the owner Deployment's name, the same on every replica").isEqualTo("tributary-server");
    assertThat(s.extraLabels()).containsExactlyInAnyOrderEntriesOf(Map.of("team", "data", "tier", "batch"));
    assertThat(s.controlPlane()).as("this host's address at the worker port").endsWith(":7077");
    assertThat(s.javaOptions()).isEqualTo("-XX:MaxRAMPercentage=70");
    WorkerPodSettings replicas = KubernetesPool.settings(7077, WorkersOption.parse("kubernetes", 3, "0.0.0.0", null,
        HB), ServerConfiguration.load(file, Map.of("TRIBUTARY_WORKERS_KUBERNETES_POOL_ID", "prod",
        "TRIBUTARY_WORKERS_KUBERNETES_CONTROL_PLANE", "tributary-control")), Map.of());
    assertThat(replicas.poolId()).isEqualTo("prod");
    assertThat(replicas.maxPods()).as("no limit").isZero();
    assertThat(replicas.ownerDeployment()).isNull();
    assertThat(replicas.controlPlane()).as("a Service that reaches every replica").isEqualTo("tributary-control:7077");
    assertThatThrownBy(() -> KubernetesPool.settings(7077, WorkersOption.parse("kubernetes", 1, "0.0.0.0", null, HB),
        ServerConfiguration.load(file, Map.of("TRIBUTARY_WORKERS_KUBERNETES_OWNER_POD", "server-0")), Map.of()))
        .hasMessage("tributary.workers.kubernetes.owner-pod is no longer read: worker pods outlive a server pod, so "
            + "that the next leader takes their jobs over; set tributary.workers.kubernetes.owner-deployment to the "
            + "server's Deployment");
    assertThatThrownBy(() -> KubernetesPool.settings(7077, WorkersOption.parse("kubernetes", 1, "0.0.0.0", null, HB),
        ServerConfiguration.load(file, Map.of("TRIBUTARY_WORKERS_KUBERNETES_SERVER_ID", "server-0")), Map.of()))
        .hasMessageStartingWith("tributary.workers.kubernetes.server-id is no longer read: worker pods belong to the "
            + "control plane, not to one server; set tributary.workers.kubernetes.pool-id");
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
   * The services of {@code --workers kubernetes:2} take attempts' workers from pods made for them,
   * through a client configured from the environment (here: the system properties that point it at the
   * mock API server): an attempt that needs five slots of pods of up to three gets two pods, owned by
   * the server's Deployment, that go when it is released.
   */
  @Test
  void theServicesMakePodsForAnAttemptAndDeleteThemWhenItIsReleased() {
    try (MockKubernetesApi api = MockKubernetesApi.start(dir.resolve("mock-api.log"));
        KubernetesClient client = api.client("jobs")) {
      client.apps().deployments().inNamespace("jobs").resource(new DeploymentBuilder().withNewMetadata()
          .withName("tributary-server").endMetadata().build()).create();
      Map<String, String> props = Map.of("kubernetes.master", api.url(), "kubernetes.trust.certificates", "true",
          "kubernetes.auth.tryKubeConfig", "false", "kubernetes.auth.tryServiceAccount", "false",
          "kubernetes.namespace", "default");
      props.forEach(System::setProperty);
      try {
        ServerConfiguration config = ServerConfiguration.load(null, Map.of("TRIBUTARY_WORKERS_KUBERNETES_IMAGE",
            "registry.example/tributary:1.0", "TRIBUTARY_WORKERS_KUBERNETES_NAMESPACE", "jobs",
            "TRIBUTARY_WORKERS_KUBERNETES_OWNER_DEPLOYMENT", "tributary-server",
            "TRIBUTARY_WORKERS_KUBERNETES_CONTROL_PLANE", "10.1.2.3"));
        ControlPlaneServices services = EmbeddedServices.open(dir.resolve("data"), ConnectorFactory.standard(),
            ConnectorPolicy.unrestricted(), new WorkersOption(WorkersOption.Kind.KUBERNETES, 2, 3, "127.0.0.1", 0, HB),
            new ClusterSecret("kubernetes-pool-test-cluster-secret", false), config);
        RemoteWorkerPool pool = (RemoteWorkerPool) services.pool();
        int port = pool.port();
        AttemptId attempt = new AttemptId("default--bids", 4);
        List<Pod> pods;
        try {
          assertThat(pool.capacity()).isInstanceOf(KubernetesWorkers.class);
          pool.capacity().demand(attempt, 5); // what acquire tells it first
          await(() -> client.pods().inNamespace("jobs").list().getItems().size() == 2);
          pods = client.pods().inNamespace("jobs").list().getItems();
          pool.release(attempt);
          await(() -> client.pods().inNamespace("jobs").list().getItems().isEmpty());
        } finally {
          services.close();
        }
        assertThat(pods).extracting(p -> p.getMetadata().getAnnotations().get("tributary.io/slots"))
            .containsExactlyInAnyOrder("3", "2");
        assertThat(pods).allSatisfy(p -> {
          assertThat(p.getMetadata().getLabels()).containsEntry("tributary.io/pool", "tributary-server")
              .containsEntry("tributary.io/job", "default--bids").containsEntry("tributary.io/attempt", "4")
              .containsEntry("app.kubernetes.io/name", "tributary-worker");
          assertThat(p.getMetadata().getOwnerReferences()).singleElement()
              .satisfies(o -> assertThat(o.getName()).isEqualTo("tributary-server"));
          assertThat(p.getSpec().getContainers().get(0).getArgs()).containsSubsequence("--control-plane",
              "10.1.2.3:" + port);
        });
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
