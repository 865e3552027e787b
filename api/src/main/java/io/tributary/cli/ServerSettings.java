package io.tributary.cli;

import io.tributary.connect.Endpoints;
import io.tributary.scheduler.policy.Quotas;
import io.tributary.server.TributaryServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server's configuration from its options and environment (options win). Quotas come from
 * {@code TRIBUTARY_QUOTA_JOBS}, {@code _TOKENS}, {@code _PARALLELISM},
 * {@code _MIN_CHECKPOINT_INTERVAL} (a duration such as {@code 1s}) and {@code _MAX_RECORDS_PER_SECOND};
 * the metrics token from {@code TRIBUTARY_METRICS_TOKEN}; the token key from {@code TRIBUTARY_TOKEN_KEY}.
 */
final class ServerSettings {
  private ServerSettings() {}

  static TributaryServer.Config config(Path dataDir, int port, String adminToken, String host, boolean dev,
      List<Path> fileRoots, String endpoints, Map<String, String> env) {
    List<Path> roots = new ArrayList<>(fileRoots);
    if (roots.isEmpty() && env.get("TRIBUTARY_FILE_ROOTS") != null && !env.get("TRIBUTARY_FILE_ROOTS").isBlank()) {
      for (String r : env.get("TRIBUTARY_FILE_ROOTS").split(":")) {
        roots.add(Path.of(r).toAbsolutePath());
      }
    }
    TributaryServer.Config c = roots.isEmpty() ? new TributaryServer.Config(dataDir, port, adminToken)
        : new TributaryServer.Config(dataDir, port, adminToken, roots);
    String h = host != null ? host : env.getOrDefault("TRIBUTARY_HOST", TributaryServer.DEFAULT_HOST);
    String e = endpoints != null ? endpoints : env.getOrDefault("TRIBUTARY_ALLOWED_ENDPOINTS", Endpoints.LOOPBACK_DEFAULT);
    boolean devMode = dev || "true".equalsIgnoreCase(env.get("TRIBUTARY_DEV_MODE"));
    return c.withHost(h).withEndpoints(e).withDevMode(devMode).withQuotas(quotas(env))
        .withMetricsToken(env.get("TRIBUTARY_METRICS_TOKEN")).withTokenKey(env.get("TRIBUTARY_TOKEN_KEY"));
  }

  static Quotas quotas(Map<String, String> env) {
    Quotas q = Quotas.DEFAULTS;
    q = q.withJobs(integer(env, "TRIBUTARY_QUOTA_JOBS", q.jobs()));
    q = q.withTokens(integer(env, "TRIBUTARY_QUOTA_TOKENS", q.tokens()));
    q = q.withParallelism(integer(env, "TRIBUTARY_QUOTA_PARALLELISM", q.parallelism()));
    String interval = env.get("TRIBUTARY_QUOTA_MIN_CHECKPOINT_INTERVAL");
    if (interval != null && !interval.isBlank()) {
      try {
        q = q.withMinCheckpointInterval(Duration.ofMillis(io.tributary.plan.Durations.parseMillis(interval.trim())));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException("TRIBUTARY_QUOTA_MIN_CHECKPOINT_INTERVAL: " + ex.getMessage());
      }
    }
    String rate = env.get("TRIBUTARY_QUOTA_MAX_RECORDS_PER_SECOND");
    if (rate != null && !rate.isBlank()) {
      try {
        q = q.withMaxRecordsPerSecond(Double.parseDouble(rate.trim()));
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException("TRIBUTARY_QUOTA_MAX_RECORDS_PER_SECOND must be a number, not '" + rate + "'");
      }
    }
    return q;
  }

  private static int integer(Map<String, String> env, String name, int defaultValue) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      return defaultValue;
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number of at least 0, not '" + v + "'");
    }
  }
}
