package io.tributary.worker.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tributary.protocol.AttemptId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The worker pods of an attempt: their spec, labels and names, and how an attempt's slots are spread. */
class WorkerPodsTest {
  private static final String NS = "tributary";
  private static final AttemptId ATTEMPT = new AttemptId("default--bids", 7);

  static WorkerPodSettings settings() {
    return WorkerPodSettings.of("tributary", 4, "registry.example/tributary:1.2", "tributary-control:7077")
        .withNamespace(NS).withServiceAccount("tributary-worker").withSecret("my-secrets", "cluster-secret")
        .withResources("500m", "768Mi").withEnv(Map.of("TRIBUTARY_S3_ENDPOINT", "http://minio:9000"))
        .withLabels(Map.of("team", "data"));
  }

  @Test
  void aPodRunsTheWorkerOfItsAttemptWithItsSlotsSecretAndPodIp() {
    Pod pod = WorkerPods.pod(settings(), NS, "tributary-default--bids-7-abcde", ATTEMPT, 3,
        new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("Deployment").withName("tributary-server")
            .withUid("uid-1").build());
    assertThat(pod.getMetadata().getName()).isEqualTo("tributary-default--bids-7-abcde");
    assertThat(pod.getMetadata().getNamespace()).isEqualTo(NS);
    assertThat(pod.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "app.kubernetes.io/name", "tributary-worker", "tributary.io/pool", "tributary",
        "tributary.io/job", "default--bids", "tributary.io/attempt", "7", "team", "data"));
    assertThat(pod.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "tributary.io/job", "default--bids", "tributary.io/slots", "3"));
    assertThat(WorkerPods.attemptOf(pod)).isEqualTo(ATTEMPT);
    assertThat(WorkerPods.slotsOf(pod)).isEqualTo(3);
    assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("Deployment");
      assertThat(o.getApiVersion()).isEqualTo("apps/v1");
      assertThat(o.getName()).isEqualTo("tributary-server");
      assertThat(o.getUid()).isEqualTo("uid-1");
    });
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("tributary-worker");
    assertThat(pod.getSpec().getContainers()).hasSize(1);
    Container c = pod.getSpec().getContainers().get(0);
    assertThat(c.getImage()).isEqualTo("registry.example/tributary:1.2");
    assertThat(c.getCommand()).as("the image's entrypoint (bin/tributary) runs").isEmpty();
    assertThat(c.getArgs()).containsExactly("worker", "--control-plane", "tributary-control:7077", "--worker-id",
        "tributary-default--bids-7-abcde", "--slots", "3", "--bind", "0.0.0.0", "--advertise", "$(POD_IP)",
        "--data-port", "7078", "--cache-dir", "/var/cache/tributary");
    assertThat(c.getPorts()).singleElement().satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(7078));
    // its 3 slots (not the pool's 4 per pod): 3 x 500m CPU, 3 x 768Mi
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
  void anAttemptsSlotsGoToAsFewPodsAsHoldThemSpreadEvenly() {
    assertThat(WorkerPods.split(1, 4)).containsExactly(1);
    assertThat(WorkerPods.split(4, 4)).containsExactly(4);
    assertThat(WorkerPods.split(5, 4)).containsExactly(3, 2);
    assertThat(WorkerPods.split(8, 4)).containsExactly(4, 4);
    assertThat(WorkerPods.split(9, 4)).containsExactly(3, 3, 3);
    assertThat(WorkerPods.split(7, 1)).containsExactly(1, 1, 1, 1, 1, 1, 1);
    assertThat(WorkerPods.split(0, 4)).isEmpty();
    for (int slots = 1; slots <= 40; slots++) {
      for (int perPod = 1; perPod <= 9; perPod++) {
        List<Integer> pods = WorkerPods.split(slots, perPod);
        assertThat(pods.stream().mapToInt(Integer::intValue).sum()).isEqualTo(slots);
        int most = perPod;
        assertThat(pods).hasSize((slots + perPod - 1) / perPod).allMatch(n -> n >= 1 && n <= most);
        assertThat(pods.get(0) - pods.get(pods.size() - 1)).isBetween(0, 1);
      }
    }
  }

  @Test
  void labelValuesAndPodNamesFromJobsOfAnyLength() {
    assertThat(WorkerPods.labelValue("default--bids")).isEqualTo("default--bids");
    String longJob = "a-project-with-a-long-name--" + "j".repeat(60);
    String value = WorkerPods.labelValue(longJob);
    assertThat(value).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([-a-z0-9_.]*[a-z0-9])?")
        .startsWith("a-project-with-a-long-name--jjjj")
        .isNotEqualTo(WorkerPods.labelValue(longJob + "k")).as("stays the same").isEqualTo(WorkerPods.labelValue(longJob));
    assertThat(WorkerPods.labelValue("a b/c")).isEqualTo("a-b-c");

    assertThat(WorkerPods.podName("tributary", ATTEMPT, "x2k9z")).isEqualTo("tributary-default--bids-7-x2k9z");
    String name = WorkerPods.podName("Release_Name.tributary-fullname", new AttemptId(longJob, 1733389200123L), "x2k9z");
    assertThat(name).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
        .startsWith("release-name-t-a-project-with-a-long-name-").endsWith("-1733389200123-x2k9z");
  }

  @Test
  void resourcesAndSettingsAreChecked() {
    assertThat(WorkerPods.cpuMillis("2")).isEqualTo(2000);
    assertThat(WorkerPods.cpuMillis("0.25")).isEqualTo(250);
    assertThat(WorkerPods.cpuMillis("250m")).isEqualTo(250);
    Pod one = WorkerPods.pod(settings().withResources("1", "1Gi"), NS, "w", ATTEMPT, 3, null);
    assertThat(one.getSpec().getContainers().get(0).getResources().getRequests()).containsEntry("cpu", new Quantity("3"))
        .containsEntry("memory", new Quantity("3072Mi"));
    assertThat(one.getMetadata().getOwnerReferences()).isEmpty();
    assertThatThrownBy(() -> settings().withResources("lots", "1Gi")).hasMessageContaining("CPU quantity");
    assertThatThrownBy(() -> settings().withResources("1", "much")).hasMessageContaining("memory quantity");
    for (String own : List.of("tributary.io/pool", "tributary.io/job", "tributary.io/attempt", "app.kubernetes.io/name")) {
      assertThatThrownBy(() -> settings().withLabels(Map.of(own, "x"))).hasMessageContaining("the pool's own");
    }
    assertThatThrownBy(() -> WorkerPodSettings.of("bad id!", 1, "i", "h:1")).hasMessageContaining("label");
    assertThatThrownBy(() -> WorkerPodSettings.of("s", 1, "i", "no-port")).hasMessageContaining("host:port");
    assertThat(WorkerPodSettings.of("s", 1, "i", "a:1,b:2").controlPlane()).as("every replica's address").isEqualTo("a:1,b:2");
    assertThatThrownBy(() -> settings().withMaxPods(-1)).hasMessageContaining("a limit of 0 (none) or more");
    assertThatThrownBy(() -> WorkerPodSettings.of("s", 0, "i", "h:1")).hasMessageContaining("at least 1 slot");
  }

  private static EnvVar env(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no env " + name + " in " + c.getEnv()));
  }
}
