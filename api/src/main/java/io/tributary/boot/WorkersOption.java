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
 *   <li>{@code kubernetes[:N]}: worker pods the server creates through the Kubernetes API for each
 *       attempt of a job as it starts, and deletes when the attempt ends ({@code KubernetesPool}, the
 *       pods' settings under {@code tributary.workers.kubernetes.*} of {@link ServerConfiguration}),
 *       registering at the worker port; at most N pods at once over all jobs ({@code kubernetes}: no
 *       limit).
 * </ul>
 *
 * @param kind which of them
 * @param count for {@code local}: the number of worker processes; for {@code kubernetes}: the most worker
 *     pods at once (0: no limit)
 * @param slots for {@code local}: the slots of each process; for {@code kubernetes}: the most slots of a
 *     pod (an attempt's slots are spread over as few pods as hold them)
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

  /** The largest limit of worker pods {@code kubernetes:N} takes. */
  public static final int MAX_PODS = 4096;

  /** The worker port external workers connect to unless told otherwise. */
  public static final int DEFAULT_PORT = 7077;

  public static final WorkersOption IN_PROCESS = new WorkersOption(Kind.IN_PROCESS, 0, 0, "127.0.0.1", 0,
      Duration.ofSeconds(5));

  /**
   * Parses {@code in-process}, {@code local:N}, {@code external}, {@code kubernetes} or {@code kubernetes:N}.
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
        n = t.equals("kubernetes") ? 0 : Integer.parseInt(t.substring("kubernetes:".length()));
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n < 0 || n > MAX_PODS || (n == 0 && !t.equals("kubernetes"))) {
        throw new IllegalArgumentException("--workers kubernetes:N needs N, the most worker pods at once (each job's "
            + "attempt gets pods of its own), between 1 and " + MAX_PODS + ", not '" + text + "'; --workers kubernetes "
            + "sets no limit");
      }
      if (slots < 1) {
        throw new IllegalArgumentException("--worker-slots must be at least 1, not " + slots);
      }
      return new WorkersOption(Kind.KUBERNETES, n, slots, bindHost, port != null ? port : DEFAULT_PORT,
          heartbeatTimeout);
    }
    throw new IllegalArgumentException("--workers takes in-process, local:N, external or kubernetes[:N], not '" + text
        + "'");
  }
}
