package io.tributary.connect;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The client settings a job spec may pass to a connector's client ({@code properties} of a Kafka
 * source or sink): an allow-list of keys with a check of each value. Everything else is refused:
 * keys that load classes ({@code interceptor.classes}, {@code metric.reporters}, {@code
 * sasl.login.callback.handler.class}, ...), read files ({@code ssl.truststore.location}), name
 * other endpoints, or override what the connector sets itself ({@code bootstrap.servers}, {@code
 * group.id}, serializers, {@code enable.auto.commit}, {@code transactional.id}, ...). {@code
 * sasl.jaas.config} is allowed only for the PLAIN and SCRAM login modules with quoted options.
 *
 * <p>Checked when a spec is validated (the scheduler) and again when the connector builds its
 * client, so a stored spec of an older version cannot pass a refused key either.
 */
public final class ClientSettings {
  private static final Pattern JAAS = Pattern.compile("^\\s*org\\.apache\\.kafka\\.common\\.security\\."
      + "(plain\\.PlainLoginModule|scram\\.ScramLoginModule)\\s+required(\\s+[A-Za-z][A-Za-z0-9_]*=\"[^\"\\\\;]*\")*\\s*;\\s*$");
  private static final Predicate<String> ANY_TEXT = v -> v.length() <= 256 && v.chars().noneMatch(Character::isISOControl);
  private static final Map<String, Predicate<String>> COMMON = Map.ofEntries(
      Map.entry("client.id", ANY_TEXT),
      Map.entry("client.rack", ANY_TEXT),
      Map.entry("request.timeout.ms", range(1_000, 600_000)),
      Map.entry("default.api.timeout.ms", range(1_000, 600_000)),
      Map.entry("metadata.max.age.ms", range(1_000, 3_600_000)),
      Map.entry("connections.max.idle.ms", range(1_000, 3_600_000)),
      Map.entry("reconnect.backoff.ms", range(0, 60_000)),
      Map.entry("reconnect.backoff.max.ms", range(0, 300_000)),
      Map.entry("retry.backoff.ms", range(0, 60_000)),
      Map.entry("retry.backoff.max.ms", range(0, 300_000)),
      Map.entry("socket.connection.setup.timeout.ms", range(100, 120_000)),
      Map.entry("socket.connection.setup.timeout.max.ms", range(100, 300_000)),
      Map.entry("send.buffer.bytes", range(-1, 8 << 20)),
      Map.entry("receive.buffer.bytes", range(-1, 8 << 20)),
      Map.entry("security.protocol", oneOf("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")),
      Map.entry("sasl.mechanism", oneOf("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")),
      Map.entry("sasl.jaas.config", v -> JAAS.matcher(v).matches()),
      Map.entry("ssl.endpoint.identification.algorithm", oneOf("https", "")),
      Map.entry("ssl.truststore.type", oneOf("PEM")),
      Map.entry("ssl.truststore.certificates", v -> v.length() <= 64 * 1024 && v.contains("-----BEGIN CERTIFICATE-----")),
      Map.entry("ssl.protocol", oneOf("TLSv1.2", "TLSv1.3")),
      Map.entry("ssl.enabled.protocols", v -> v.matches("(TLSv1\\.[23])(,\\s*TLSv1\\.[23])*")));
  private static final Map<String, Predicate<String>> CONSUMER = Map.ofEntries(
      Map.entry("fetch.min.bytes", range(1, 64 << 20)),
      Map.entry("fetch.max.bytes", range(1, 64 << 20)),
      Map.entry("fetch.max.wait.ms", range(0, 60_000)),
      Map.entry("max.partition.fetch.bytes", range(1, 16 << 20)),
      Map.entry("max.poll.records", range(1, 10_000)),
      Map.entry("max.poll.interval.ms", range(1_000, 3_600_000)),
      Map.entry("session.timeout.ms", range(1_000, 3_600_000)),
      Map.entry("heartbeat.interval.ms", range(100, 600_000)),
      Map.entry("isolation.level", oneOf("read_committed", "read_uncommitted")),
      Map.entry("check.crcs", oneOf("true", "false")),
      Map.entry("allow.auto.create.topics", oneOf("true", "false")),
      Map.entry("client.dns.lookup", oneOf("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only")));
  private static final Map<String, Predicate<String>> PRODUCER = Map.ofEntries(
      Map.entry("batch.size", range(0, 16 << 20)),
      Map.entry("linger.ms", range(0, 60_000)),
      Map.entry("buffer.memory", range(1 << 20, 256 << 20)),
      Map.entry("max.request.size", range(1_000, 16 << 20)),
      Map.entry("compression.type", oneOf("none", "gzip", "snappy", "lz4", "zstd")),
      Map.entry("delivery.timeout.ms", range(1_000, 3_600_000)),
      Map.entry("max.block.ms", range(0, 600_000)),
      Map.entry("retries", range(0, Integer.MAX_VALUE)),
      Map.entry("max.in.flight.requests.per.connection", range(1, 5)),
      Map.entry("transaction.timeout.ms", range(1_000, 3_600_000)),
      Map.entry("client.dns.lookup", oneOf("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only")));

  private ClientSettings() {}

  /**
   * Why {@code key} = {@code value} may not be passed to the client of a {@code type} source or
   * sink; empty if it may.
   */
  public static Optional<String> refusal(String type, boolean sink, String key, String value) {
    if (!"kafka".equals(type)) {
      return Optional.of("connectors of type " + type + " take no client settings");
    }
    Predicate<String> rule = COMMON.get(key);
    if (rule == null) {
      rule = (sink ? PRODUCER : CONSUMER).get(key);
    }
    if (rule == null) {
      return Optional.of("'" + key + "' is not a client setting a job may set; allowed: "
          + String.join(", ", allowed(sink)));
    }
    if (value == null || !rule.test(value)) {
      return Optional.of("'" + key + "' may not be set to '" + abbreviated(value) + "'");
    }
    return Optional.empty();
  }

  /** The keys a Kafka source ({@code sink} false) or sink may set, sorted. */
  public static List<String> allowed(boolean sink) {
    java.util.TreeSet<String> keys = new java.util.TreeSet<>(COMMON.keySet());
    keys.addAll((sink ? PRODUCER : CONSUMER).keySet());
    return List.copyOf(keys);
  }

  /**
   * Throws on the first refused setting.
   *
   * @throws AccessRefusedException naming {@code what} and the key
   */
  public static void check(String what, String type, boolean sink, Map<String, String> settings) {
    for (Map.Entry<String, String> e : settings.entrySet()) {
      Optional<String> why = refusal(type, sink, e.getKey(), e.getValue());
      if (why.isPresent()) {
        throw new AccessRefusedException(what + ": properties: " + why.get());
      }
    }
  }

  private static String abbreviated(String v) {
    if (v == null) {
      return "null";
    }
    return v.length() > 60 ? v.substring(0, 60) + "..." : v;
  }

  private static Predicate<String> oneOf(String... values) {
    List<String> allowed = List.of(values);
    return allowed::contains;
  }

  private static Predicate<String> range(long min, long max) {
    return v -> {
      try {
        long n = new java.math.BigDecimal(v.trim()).longValueExact();
        return n >= min && n <= max;
      } catch (NumberFormatException | ArithmeticException e) {
        return false;
      }
    };
  }
}
