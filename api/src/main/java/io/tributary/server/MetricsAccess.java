package io.tributary.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may read {@code GET /metrics}, which names every project and job: the administrator, or
 * whoever presents the server's metrics token ({@code TRIBUTARY_METRICS_TOKEN}), which may read
 * nothing else. Without a metrics token, only the administrator.
 */
final class MetricsAccess {
  private final byte[] token;

  MetricsAccess(String token) {
    this.token = token == null || token.isBlank() ? null : token.getBytes(StandardCharsets.UTF_8);
  }

  /** Whether {@code presented} is the metrics token (compared in constant time). */
  boolean isMetricsToken(String presented) {
    return token != null && presented != null
        && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8));
  }
}
