package io.tributary.worker.kubernetes;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.HashMap;

/**
 * fabric8's mock Kubernetes API server in CRUD mode, in a JVM of its own: prints {@code listening
 * <url>} and serves until its standard input ends (its parent is gone). The api module's
 * {@code KubernetesWorkersIT} runs it on this module's test classpath ({@code
 * target/mock-api-classpath.txt}): the mock's Vert.x needs a newer Netty than the one the api's
 * Micronaut pins, so it cannot run in the api's test JVM.
 */
public final class MockApiServer {
  private MockApiServer() {}

  public static void main(String[] args) throws Exception {
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
        new KubernetesCrudDispatcher(), false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    System.out.println("listening " + server.url("/"));
    System.out.flush();
    while (System.in.read() != -1) {
      // serve until the parent closes our input
    }
    server.destroy();
    System.exit(0);
  }
}
