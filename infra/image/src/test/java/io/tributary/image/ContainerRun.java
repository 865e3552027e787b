package io.tributary.image;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs an unpacked image's entrypoint the way a container runtime does, without one: in a mount and
 * PID namespace of its own ({@code unshare}) with {@code /proc}, {@code /dev} and {@code /etc/hosts}
 * mounted, changed root into the image's file system ({@code chroot}), as the image's user, in its
 * working directory, with its environment only. The network is the host's (ports on loopback).
 * Needs root, as a runtime does; {@link #available()} says whether this machine can.
 *
 * <p>The mounts live in the namespace and go with it, so nothing is left mounted on the host.
 */
final class ContainerRun {
  private final Path root;
  private final JsonNode config;

  ContainerRun(Path root, JsonNode imageConfig) {
    this.root = root;
    this.config = imageConfig.get("config");
  }

  /** Whether this process may make the namespaces and change root (root, with unshare and chroot). */
  static boolean available() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0
          && Files.isExecutable(Path.of("/usr/bin/unshare")) && Files.isExecutable(Path.of("/usr/sbin/chroot"));
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * Starts the entrypoint with {@code args}, the image's environment plus {@code env}, its output
   * (both streams) into {@code log}.
   */
  Process start(List<String> args, Map<String, String> env, Path log) throws IOException {
    Files.createDirectories(root.resolve("proc"));
    Files.createDirectories(root.resolve("dev"));
    if (!Files.exists(root.resolve("etc/hosts"))) {
      Files.createFile(root.resolve("etc/hosts"));
    }
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/unshare", "--mount", "--pid", "--fork", "--kill-child",
        "/bin/sh", "-c", MOUNT_THEN_EXEC, "container", root.toString(), "/usr/bin/env", "-i"));
    environment(env).forEach((k, v) -> cmd.add(k + "=" + v));
    cmd.addAll(List.of("/usr/sbin/chroot", "--userspec=" + config.get("User").asText(), root.toString(),
        "/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", config.get("WorkingDir").asText()));
    config.get("Entrypoint").forEach(e -> cmd.add(e.asText()));
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /**
   * In the new namespace: mounts /proc, /dev and the host's /etc/hosts (as runtimes give a container
   * its host name) under the root ($1), then runs the rest: {@code env
   * -i NAME=VALUE... chroot --userspec=USER ROOT /bin/sh -c 'cd WORKDIR && exec ENTRYPOINT ARGS...'}
   * (the last shell is the image's own).
   */
  private static final String MOUNT_THEN_EXEC =
      "mount -t proc proc \"$1/proc\" && mount --rbind /dev \"$1/dev\" && mount --bind /etc/hosts \"$1/etc/hosts\" "
          + "|| exit 125; shift; exec \"$@\"";

  private Map<String, String> environment(Map<String, String> extra) {
    Map<String, String> out = new LinkedHashMap<>();
    config.get("Env").forEach(e -> {
      String kv = e.asText();
      out.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
    });
    out.putAll(extra);
    return out;
  }

  /** Stops {@code p}'s container: SIGTERM to what runs in it, as a runtime stops one; then kills. */
  static void stop(Process p, Duration grace) throws InterruptedException {
    p.descendants().forEach(ProcessHandle::destroy);
    if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
