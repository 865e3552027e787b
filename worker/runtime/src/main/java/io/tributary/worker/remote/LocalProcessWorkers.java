package io.tributary.worker.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Worker processes on this host for a {@link RemoteWorkerPool} ({@code server --workers local:N}):
 * starts {@code count} of them and keeps {@code count} running — a worker process that exits, or
 * that the pool lost (then it is killed first), is replaced by a new one under a new id, so a worker
 * that was merely cut off never comes back under the id of its replacement. Each writes its log to
 * {@code <logDir>/<id>.log}, and stops when this process ends, however it ends (they are given its
 * pid), so no worker outlives its server.
 */
public final class LocalProcessWorkers implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(LocalProcessWorkers.class.getName());

  /**
   * @param count worker processes to keep running
   * @param slots slots of each
   * @param command the command that starts a worker (java, its options, the classpath, the main
   *     class and {@code worker}); the control plane, the worker's id, slots, cache directory and
   *     this process's pid are appended
   * @param cacheRoot the workers' cache directories are made under it
   * @param logDir where their logs go
   * @param env environment added to theirs (the cluster secret)
   */
  public record Settings(int count, int slots, List<String> command, Path cacheRoot, Path logDir,
      Map<String, String> env) {
    public Settings {
      command = List.copyOf(command);
      env = Map.copyOf(env);
    }
  }

  private final RemoteWorkerPool pool;
  private final Settings settings;
  private final Map<String, Process> running = new ConcurrentHashMap<>();
  private final AtomicInteger nextId = new AtomicInteger(1);
  private volatile boolean closed;

  public LocalProcessWorkers(RemoteWorkerPool pool, Settings settings) {
    this.pool = pool;
    this.settings = settings;
    try {
      Files.createDirectories(settings.logDir());
      Files.createDirectories(settings.cacheRoot());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the local workers' directories: " + e.getMessage(), e);
    }
    pool.onWorkerEvent(e -> {
      Process p = running.get(e.worker());
      if (e.lost() && p != null && p.isAlive()) {
        LOG.log(System.Logger.Level.WARNING, "killing lost worker {0} (pid {1}) to replace it", e.worker(), p.pid());
        p.destroyForcibly(); // its exit starts the replacement
      }
    });
    for (int i = 0; i < settings.count(); i++) {
      startOne();
    }
  }

  private void startOne() {
    if (closed) {
      return;
    }
    String id = "worker-" + nextId.getAndIncrement();
    List<String> cmd = new ArrayList<>(settings.command());
    cmd.addAll(List.of("--control-plane", "127.0.0.1:" + pool.port(), "--worker-id", id, "--slots",
        String.valueOf(settings.slots()), "--cache-dir", settings.cacheRoot().resolve(id).toString(),
        "--parent-pid", String.valueOf(ProcessHandle.current().pid())));
    ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(settings.logDir().resolve(id + ".log").toFile());
    b.environment().putAll(settings.env());
    Process p;
    try {
      p = b.start();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.ERROR, "cannot start worker process " + id + ": " + e.getMessage(), e);
      return;
    }
    running.put(id, p);
    LOG.log(System.Logger.Level.INFO, "started worker {0} (pid {1}), log {2}", id, p.pid(),
        settings.logDir().resolve(id + ".log"));
    p.onExit().thenAccept(exited -> {
      running.remove(id, exited);
      if (!closed) {
        LOG.log(System.Logger.Level.WARNING, "worker {0} (pid {1}) exited with {2}; starting a replacement", id,
            exited.pid(), exited.exitValue());
        startOne();
      }
    });
  }

  /** The worker processes running now, by worker id. */
  public Map<String, ProcessHandle> processes() {
    Map<String, ProcessHandle> out = new java.util.TreeMap<>();
    running.forEach((id, p) -> {
      if (p.isAlive()) {
        out.put(id, p.toHandle());
      }
    });
    return out;
  }

  @Override
  public void close() {
    closed = true;
    for (Process p : running.values()) {
      p.destroy();
    }
    for (Process p : running.values()) {
      try {
        if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
    running.clear();
  }
}
