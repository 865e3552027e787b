package io.tributary.boot;

import java.time.Duration;
import java.util.Locale;

/**
 * Where a server runs its jobs' tasks ({@code server --workers}):
 * <ul>
 *   <li>{@code in-process} (the default): threads of the server's own process;
 *   <li>{@code local:N}: N worker processes on this host, started and supervised by the server;
 *   <li>{@code external}: worker processes started by someone else ({@code tributary worker}), on this
 *       host or others, that register at the server's worker port;
 *   <li>{@code kubernetes:N} ({@code kubernetes}: one): N worker pods the server creates and
 *       supervises through the Kubernetes API ({@code KubernetesPool}, the pods' settings under {@code
 *       tributary.workers.kubernetes.*} of {@link ServerConfiguration}), registering at the worker port.
 * </ul>
 *
 * @param kind which of them
 * @param count for {@code local} and {@code kubernetes}: the number of worker processes (pods)
 * @param slots for {@code local} and {@code kubernetes}: the slots of each
 * @param bindHost the address the worker port listens on
 * @param port the worker port (0: any free one)
 * @param heartbeatTimeout a worker silent this long is lost
 * @param metricsInterval how often workers report their tasks' metrics (default 1 s)
 * @param javaOptions for {@code local}: the JVM options of the worker processes, or null for
 *     {@code TRIBUTARY_WORKER_JAVA_OPTS}, else {@code -Xmx1g}
 */
public record WorkersOption(Kind kind, int count, int slots, String bindHost, int port, Duration heartbeatTimeout,
    Duration metricsInterval, String javaOptions) {
  public enum Kind { IN_PROCESS, LOCAL, EXTERNAL, KUBERNETES }

  /** How often workers report metrics unless told otherwise. */
  public static final Duration DEFAULT_METRICS_INTERVAL = Duration.ofSeconds(1);

  /** With the default metrics interval. */
  public WorkersOption(Kind kind, int count, int slots, String bindHost, int port, Duration heartbeatTimeout) {
    this(kind, count, slots, bindHost, port, heartbeatTimeout, DEFAULT_METRICS_INTERVAL, null);
  }

  /** The same, reporting metrics every {@code m}. */
  public WorkersOption withMetricsInterval(Duration m) {
    return new WorkersOption(kind, count, slots, bindHost, port, heartbeatTimeout, m, javaOptions);
  }

  /** The same, local worker processes started with JVM options {@code o} (such as {@code -Xmx4g}). */
  public WorkersOption withJavaOptions(String o) {
    return new WorkersOption(kind, count, slots, bindHost, port, heartbeatTimeout, metricsInterval, o);
  }

  /** The worker port external workers connect to unless told otherwise. */
  public static final int DEFAULT_PORT = 7077;

  public static final WorkersOption IN_PROCESS = new WorkersOption(Kind.IN_PROCESS, 0, 0, "127.0.0.1", 0,
      Duration.ofSeconds(5));

  /**
   * Parses {@code in-process}, {@code local:N}, {@code external} or {@code kubernetes[:N]}.
   *
   * @throws IllegalArgumentException with what to write instead
   */
  public static WorkersOption parse(String text, int slots, String bindHost, Integer port, Duration heartbeatTimeout) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("in-process")) {
      return IN_PROCESS;
    }
    if (t.equals("external")) {
      return new WorkersOption(Kind.EXTERNAL, 0, 0, bindHost, port != null ? port : DEFAULT_PORT, heartbeatTimeout);
    }
    if (t.startsWith("local:")) {
      int n;
      try {
        n = Integer.parseInt(t.substring("local:".length()));
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1 || n > 64) {
        throw new IllegalArgumentException("--workers local:N needs N between 1 and 64, not '" + text + "'");
      }
      if (slots < 1) {
        throw new IllegalArgumentException("--worker-slots must be at least 1, not " + slots);
      }
      return new WorkersOption(Kind.LOCAL, n, slots, bindHost, port != null ? port : 0, heartbeatTimeout);
    }
    if (t.equals("kubernetes") || t.startsWith("kubernetes:")) {
      int n;
      try {
        n = t.equals("kubernetes") ? 1 : Integer.parseInt(t.substring("kubernetes:".length()));
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n < 0 || n > 256) {
        throw new IllegalArgumentException("--workers kubernetes:N needs N between 0 and 256, not '" + text + "'");
      }
      if (slots < 1) {
        throw new IllegalArgumentException("--worker-slots must be at least 1, not " + slots);
      }
      return new WorkersOption(Kind.KUBERNETES, n, slots, bindHost, port != null ? port : DEFAULT_PORT,
          heartbeatTimeout);
    }
    throw new IllegalArgumentException("--workers takes in-process, local:N, external or kubernetes:N, not '" + text
        + "'");
  }
}
