package io.tributary.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Worker processes for the cluster tests: this JVM's children, and workers the tests start themselves. */
public final class WorkerProcesses {
  private WorkerProcesses() {}

  /** The worker processes this JVM started (directly, or through a server's local pool), by pid. */
  static List<ProcessHandle> children() {
    return ProcessHandle.current().children().filter(WorkerProcesses::isWorker).filter(ProcessHandle::isAlive)
        .toList();
  }

  private static boolean isWorker(ProcessHandle p) {
    List<String> args = List.of(p.info().arguments().orElse(new String[0]));
    int main = args.indexOf("io.tributary.cli.Main");
    return main >= 0 && main + 1 < args.size() && args.get(main + 1).equals("worker");
  }

  /** The {@code --worker-id} of a worker process. */
  static String idOf(ProcessHandle p) {
    String[] args = p.info().arguments().orElse(new String[0]);
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals("--worker-id")) {
        return args[i + 1];
      }
    }
    return "?";
  }

  /** Starts {@code tributary worker} like this JVM, with its log in {@code log}. */
  static Process start(String controlPlane, String id, int slots, Path cache, Path log, String secret) {
    return start(controlPlane, id, slots, cache, log, secret, Map.of());
  }

  /** As {@link #start(String, String, int, Path, Path, String)}, with more environment (S3 settings). */
  public static Process start(String controlPlane, String id, int slots, Path cache, Path log, String secret,
      Map<String, String> env) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main", "worker",
        "--control-plane", controlPlane, "--worker-id", id, "--slots", String.valueOf(slots),
        "--cache-dir", cache.toString()));
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      b.environment().putAll(env);
      b.environment().put("TRIBUTARY_CLUSTER_SECRET", secret);
      return b.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends {@code signal} (STOP, CONT) to {@code pid}. */
  static void signal(long pid, String signal) {
    try {
      Process p = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new AssertionError("kill -" + signal + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  static String log(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout + ": " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
  }

  static Optional<ProcessHandle> any(List<ProcessHandle> ps, java.util.Random random) {
    return ps.isEmpty() ? Optional.empty() : Optional.of(ps.get(random.nextInt(ps.size())));
  }

  static Map<String, String> env() {
    return Map.of();
  }
}
