package io.tributary.boot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How to start a worker process like this JVM: same Java, same classpath, {@code tributary worker}. */
final class WorkerCommands {
  /** JVM options of local worker processes unless {@code TRIBUTARY_WORKER_JAVA_OPTS} says otherwise. */
  static final String DEFAULT_JAVA_OPTS = "-Xmx1g";

  private WorkerCommands() {}

  /** @param javaOptions the workers' JVM options, or null for the environment's or the default */
  static List<String> thisJvm(String javaOptions) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String opts = javaOptions != null ? javaOptions
        : System.getenv().getOrDefault("TRIBUTARY_WORKER_JAVA_OPTS", DEFAULT_JAVA_OPTS);
    for (String o : opts.trim().split("\\s+")) {
      if (!o.isEmpty()) {
        cmd.add(o);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.tributary.cli.Main");
    cmd.add("worker");
    return cmd;
  }
}
