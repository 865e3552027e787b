package io.tributary.scheduler.metadata.dynamo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * dynalite (npm, pinned in {@code src/test/dynalite/package-lock.json}) run as its own node
 * process on a free port, in memory. Installs it with {@code npm ci} first if {@code
 * node_modules} is missing. Needs {@code node} and {@code npm} on the PATH.
 */
final class Dynalite implements AutoCloseable {
  private static final Path DIR = Path.of("src", "test", "dynalite").toAbsolutePath();
  private static final Path LOG = Path.of("target", "dynalite.log").toAbsolutePath();

  private final Process process;
  private final int port;

  private Dynalite(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static Dynalite start() throws Exception {
    installIfMissing();
    int port = freePort();
    Process process = new ProcessBuilder("node", "node_modules/dynalite/cli.js", "--port", Integer.toString(port),
        "--host", "127.0.0.1", "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0")
        .directory(DIR.toFile())
        .redirectErrorStream(true)
        .start();
    Dynalite dynalite = new Dynalite(process, port);
    try {
      dynalite.awaitListening();
      return dynalite;
    } catch (Exception e) {
      dynalite.close();
      throw e;
    }
  }

  /** Waits (30 s at most) for dynalite's "listening" line, then copies its output to a log. */
  private void awaitListening() throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
      try {
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          seen.append(line).append('\n');
          if (line.contains("listening at")) {
            return line;
          }
        }
        throw new IllegalStateException("dynalite exited before listening:\n" + seen);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    ready.get(30, TimeUnit.SECONDS);
    Thread drain = new Thread(() -> copy(out), "dynalite-output");
    drain.setDaemon(true);
    drain.start();
  }

  private static void copy(BufferedReader out) {
    try {
      Files.createDirectories(LOG.getParent());
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        Files.writeString(LOG, line + "\n", StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
      }
    } catch (IOException e) {
      // the process is gone; nothing more to copy
    }
  }

  private static void installIfMissing() throws Exception {
    if (Files.isRegularFile(DIR.resolve("node_modules/dynalite/cli.js"))) {
      return;
    }
    Path log = Path.of("target", "npm-ci.log").toAbsolutePath();
    Files.createDirectories(log.getParent());
    Process npm = new ProcessBuilder(List.of("npm", "ci", "--no-audit", "--no-fund"))
        .directory(DIR.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!npm.waitFor(5, TimeUnit.MINUTES)) {
      npm.destroyForcibly();
      throw new IllegalStateException("npm ci in " + DIR + " took more than 5 minutes; see " + log);
    }
    if (npm.exitValue() != 0) {
      throw new IllegalStateException("npm ci in " + DIR + " failed:\n" + Files.readString(log));
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
