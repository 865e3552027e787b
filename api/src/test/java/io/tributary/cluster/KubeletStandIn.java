package io.tributary.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a kubelet does for the tests, where no cluster can run: watches the pods of a namespace on
 * fabric8's mock API server and runs each pod of {@code image} as a real worker process of this JVM's
 * classpath, from the pod's own spec — its args (with {@code $(VAR)} expanded from its env as a
 * kubelet does), its env (values, {@code fieldRef}s, {@code secretKeyRef}s read from the Secret in
 * the API), {@code TRIBUTARY_JAVA_OPTS} as {@code bin/tributary} reads it. The image's entrypoint
 * ({@code bin/tributary}) becomes {@code java ... io.tributary.cli.Main}. Because every "pod" shares
 * this host's network and disk, {@code status.podIP} is 127.0.0.1, the fixed {@code --data-port}
 * becomes 0 (any free port) and {@code --cache-dir} a directory per pod; nothing else is changed.
 *
 * <p>A started pod's status becomes Running with that IP; a process that exits makes its pod Failed
 * (or Succeeded on status 0), as with {@code restartPolicy: Never}; {@link #evict} kills the process
 * ({@code kill -9}) and marks the pod Failed with reason Evicted; a deleted pod's process is killed
 * ({@code kill -9}).
 */
final class KubeletStandIn implements AutoCloseable {
  private static final Pattern VAR = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

  private final KubernetesClient client;
  private final String namespace;
  private final String image;
  private final Path dir;
  private final Map<String, Process> processes = new ConcurrentHashMap<>();
  private final Set<String> evicted = ConcurrentHashMap.newKeySet();
  private final Set<String> deleted = ConcurrentHashMap.newKeySet();
  /** The command lines run, by pod: what the pod spec said, after the translations above. */
  final Map<String, List<String>> commands = new ConcurrentHashMap<>();
  final List<String> errors = new CopyOnWriteArrayList<>();
  private final ExecutorService actions = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "kubelet-stand-in");
    t.setDaemon(true);
    return t;
  });
  private final Watch watch;

  KubeletStandIn(KubernetesClient client, String namespace, String image, Path dir) {
    this.client = client;
    this.namespace = namespace;
    this.image = image;
    this.dir = dir;
    this.watch = client.pods().inNamespace(namespace).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        String name = pod.getMetadata().getName();
        switch (action) {
          case ADDED -> actions.execute(() -> run(pod));
          case DELETED -> {
            deleted.add(name);
            Process p = processes.get(name);
            if (p != null) {
              p.destroyForcibly();
            }
          }
          default -> { }
        }
      }

      @Override
      public void onClose(WatcherException cause) {
        errors.add("the stand-in's watch closed: " + cause);
      }
    });
  }

  /** The pods whose worker process runs now. */
  Set<String> running() {
    Set<String> out = new java.util.TreeSet<>();
    processes.forEach((name, p) -> {
      if (p.isAlive()) {
        out.add(name);
      }
    });
    return out;
  }

  /** The process of pod {@code name}, if it was started. */
  Process process(String name) {
    return processes.get(name);
  }

  /** Evicts pod {@code name}: kills its process ({@code kill -9}); its pod becomes Failed (Evicted). */
  void evict(String name) {
    evicted.add(name);
    Process p = processes.get(name);
    if (p == null) {
      throw new AssertionError("no process runs pod " + name);
    }
    p.destroyForcibly();
  }

  private void run(Pod pod) {
    String name = pod.getMetadata().getName();
    Container c = pod.getSpec().getContainers().get(0);
    if (!image.equals(c.getImage()) || processes.containsKey(name)) {
      return; // not the image this stand-in can run
    }
    try {
      if (c.getCommand() != null && !c.getCommand().isEmpty()) {
        throw new IllegalStateException("the pod overrides the image's entrypoint: " + c.getCommand());
      }
      Map<String, String> env = new LinkedHashMap<>();
      for (EnvVar e : c.getEnv()) {
        env.put(e.getName(), value(pod, e, env));
      }
      List<String> args = new ArrayList<>();
      for (String a : c.getArgs()) {
        args.add(expand(a, env));
      }
      for (int i = 0; i < args.size() - 1; i++) {
        if (args.get(i).equals("--data-port")) {
          args.set(i + 1, "0");
        } else if (args.get(i).equals("--cache-dir")) {
          args.set(i + 1, dir.resolve("cache").resolve(name).toString());
        }
      }
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      for (String o : env.getOrDefault("TRIBUTARY_JAVA_OPTS", "-Xmx2g").trim().split("\\s+")) {
        if (!o.isEmpty()) {
          cmd.add(o);
        }
      }
      cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.tributary.cli.Main"));
      cmd.addAll(args);
      Files.createDirectories(dir.resolve("logs"));
      ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(dir.resolve("logs").resolve(name + ".log").toFile());
      // a container sees only its own environment
      String path = b.environment().get("PATH");
      b.environment().clear();
      b.environment().put("PATH", path == null ? "/usr/bin:/bin" : path);
      b.environment().putAll(env);
      Process p = b.start();
      commands.put(name, List.copyOf(cmd));
      processes.put(name, p);
      if (deleted.contains(name)) {
        p.destroyForcibly();
        return;
      }
      status(name, "Running", null, null);
      p.onExit().thenAccept(exited -> actions.execute(() -> {
        if (deleted.contains(name)) {
          return;
        }
        boolean eviction = evicted.contains(name);
        status(name, exited.exitValue() == 0 && !eviction ? "Succeeded" : "Failed", eviction ? "Evicted" : "Error",
            eviction ? "The node was low on resource: memory (stand-in)" : "exited with " + exited.exitValue());
      }));
    } catch (IOException | RuntimeException e) {
      errors.add("pod " + name + ": " + e);
      status(name, "Failed", "CreateContainerConfigError", e.getMessage());
    }
  }

  private String value(Pod pod, EnvVar e, Map<String, String> earlier) {
    if (e.getValueFrom() == null) {
      return expand(e.getValue() == null ? "" : e.getValue(), earlier);
    }
    if (e.getValueFrom().getFieldRef() != null) {
      String path = e.getValueFrom().getFieldRef().getFieldPath();
      return switch (path) {
        case "status.podIP" -> "127.0.0.1";
        case "metadata.name" -> pod.getMetadata().getName();
        case "metadata.namespace" -> pod.getMetadata().getNamespace();
        default -> throw new IllegalStateException("field " + path + " is not known to the stand-in");
      };
    }
    if (e.getValueFrom().getSecretKeyRef() != null) {
      var ref = e.getValueFrom().getSecretKeyRef();
      Secret s = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
      if (s == null || s.getData() == null || !s.getData().containsKey(ref.getKey())) {
        throw new IllegalStateException("secret " + ref.getName() + " has no key " + ref.getKey());
      }
      return new String(Base64.getDecoder().decode(s.getData().get(ref.getKey())), StandardCharsets.UTF_8);
    }
    throw new IllegalStateException("env " + e.getName() + ": a source the stand-in does not know");
  }

  private static String expand(String s, Map<String, String> env) {
    Matcher m = VAR.matcher(s);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      String v = env.get(m.group(1));
      m.appendReplacement(b, Matcher.quoteReplacement(v != null ? v : m.group()));
    }
    m.appendTail(b);
    return b.toString();
  }

  private void status(String name, String phase, String reason, String message) {
    try {
      client.pods().inNamespace(namespace).withName(name).editStatus(p -> new PodBuilder(p).editOrNewStatus()
          .withPhase(phase).withPodIP("127.0.0.1").withReason(reason).withMessage(message).endStatus().build());
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        errors.add("status of pod " + name + ": " + e);
      }
    }
  }

  /** The pod logs, for a failure's message. */
  String logs() {
    Map<String, String> out = new TreeMap<>();
    try (var files = Files.list(dir.resolve("logs"))) {
      for (Path f : files.toList()) {
        String text = Files.readString(f);
        out.put(f.getFileName().toString(), text.length() > 2000 ? text.substring(text.length() - 2000) : text);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder b = new StringBuilder();
    out.forEach((f, t) -> b.append("--- ").append(f).append('\n').append(t).append('\n'));
    return b.toString();
  }

  @Override
  public void close() {
    watch.close();
    actions.shutdownNow();
    processes.values().forEach(Process::destroyForcibly);
    for (Process p : processes.values()) {
      try {
        p.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
