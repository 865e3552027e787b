package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server --workers local:2} as a user runs it: its worker processes register, and when the
 * server is killed with {@code kill -9} (no shutdown hook runs) they stop too instead of trying to
 * reconnect forever.
 */
@Timeout(120)
class LocalWorkersOutliveNothingIT {
  @TempDir
  Path tmp;

  private Process server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly();
    }
  }

  @Test
  void workersOfAServerKilledWithSigkillStopToo() throws Exception {
    ProcessBuilder b = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main", "server", "--port", "0",
        "--data-dir", tmp.resolve("data").toString(), "--workers", "local:2", "--worker-slots", "1")
        .redirectErrorStream(true).redirectOutput(tmp.resolve("server.log").toFile());
    b.environment().put("TRIBUTARY_ADMIN_TOKEN", "local-workers-it-admin-token-0123456789");
    b.environment().remove("TRIBUTARY_CLUSTER_SECRET");
    server = b.start();
    Path logs = tmp.resolve("data").resolve("logs").resolve("workers");
    WorkerProcesses.await("the server serving, two workers registered", Duration.ofSeconds(60), () ->
        WorkerProcesses.log(tmp.resolve("server.log")).contains("Workers: ")
            && WorkerProcesses.log(logs.resolve("worker-1.log")).contains("registered")
            && WorkerProcesses.log(logs.resolve("worker-2.log")).contains("registered"));
    List<ProcessHandle> workers = server.children().filter(ProcessHandle::isAlive).toList();
    assertThat(workers).hasSize(2);
    assertThat(WorkerProcesses.log(tmp.resolve("server.log"))).contains("Workers: 2 local worker processes")
        .contains("cluster secret");

    server.destroyForcibly(); // SIGKILL: the server's shutdown hook never runs
    server.waitFor();
    WorkerProcesses.await("the workers stop with their server", Duration.ofSeconds(30), () ->
        workers.stream().noneMatch(ProcessHandle::isAlive));
  }
}
