package io.tributary.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's mock Kubernetes API server (CRUD mode) in a child JVM ({@code MockApiServer} of the
 * worker/kubernetes module, on that module's test classpath: the mock's Vert.x needs a newer Netty
 * than this module's Micronaut pins), and clients of it. The stand-in for a cluster's API server:
 * it stores, lists, watches and deletes objects, and does nothing else (no scheduler, no kubelet, no
 * garbage collector).
 */
public final class MockKubernetesApi implements AutoCloseable {
  private final Process process;
  private final String url;

  private MockKubernetesApi(Process process, String url) {
    this.process = process;
    this.url = url;
  }

  /** Starts the mock API server; its output goes to {@code log}. */
  public static MockKubernetesApi start(Path log) {
    Path cpFile = Path.of(System.getProperty("tributary.mockApiClasspath",
        Path.of(System.getProperty("user.dir")).resolve("../worker/kubernetes/target/mock-api-classpath.txt")
            .toString())).normalize();
    Path testClasses = cpFile.resolveSibling("test-classes");
    if (!Files.exists(cpFile) || !Files.isDirectory(testClasses)) {
      throw new IllegalStateException("the mock Kubernetes API server's classpath " + cpFile + " or " + testClasses
          + " is missing: build worker/kubernetes first (mvn -pl worker/kubernetes install -DskipTests)");
    }
    try {
      String cp = testClasses + java.io.File.pathSeparator + Files.readString(cpFile).trim();
      Files.createDirectories(log.getParent());
      Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-cp", cp, "io.tributary.worker.kubernetes.MockApiServer"))
          .redirectError(log.toFile()).start();
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine(); // blocks until it listens, or ends if it cannot start
      if (line == null || !line.startsWith("listening ")) {
        p.destroyForcibly();
        throw new IllegalStateException("the mock Kubernetes API server did not start: " + line + "\n"
            + (Files.exists(log) ? Files.readString(log) : ""));
      }
      return new MockKubernetesApi(p, line.substring("listening ".length()).trim());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Its URL. */
  public String url() {
    return url;
  }

  /** A client of it, in namespace {@code namespace}; nothing of this host's Kubernetes configuration is read. */
  public KubernetesClient client(String namespace) {
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url).withTrustCerts(true).withNamespace(namespace)
        .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  @Override
  public void close() {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
