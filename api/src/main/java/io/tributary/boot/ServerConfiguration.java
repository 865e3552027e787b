package io.tributary.boot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.plan.Durations;
import io.tributary.scheduler.lifecycle.LeaderLease;
import io.tributary.scheduler.metadata.dynamo.DynamoSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a server keeps its state, from a YAML file ({@code --config}) and the environment, with
 * Micronaut's conventions: dotted kebab-case keys, nested or flat in the file, each also set by the
 * environment variable of its upper-cased name with dots and dashes as underscores ({@code
 * tributary.metadata.dynamodb.table} is {@code TRIBUTARY_METADATA_DYNAMODB_TABLE}); the
 * environment wins over the file. With nothing set, the embedded defaults hold: metadata under
 * {@code <data-dir>/metadata}, the object store at {@code <data-dir>/checkpoints}.
 *
 * <p>The keys ({@link #KEYS}):
 * <ul>
 *   <li>{@code tributary.object-store}: checkpoints, savepoints and state files: {@code
 *       s3://bucket/prefix}, {@code file:///dir} or a directory;
 *   <li>{@code tributary.s3.endpoint}, {@code tributary.s3.path-style}, {@code tributary.s3.region}:
 *       for an {@code s3://} store (the region else from {@code AWS_REGION}; credentials always from
 *       the AWS default chain);
 *   <li>{@code tributary.metadata.store}: {@code embedded} or {@code dynamodb} (the default is
 *       {@code dynamodb} when a table is named, else {@code embedded});
 *   <li>{@code tributary.metadata.dynamodb.table}, {@code .region}, {@code .endpoint}, {@code
 *       .create-table};
 *   <li>{@code tributary.leader.lease-time}: how long a dead leader keeps the other replicas from
 *       taking over (default 10s; only with a shared metadata store);
 *   <li>{@code tributary.server.advertised-url}: where the other replicas reach this one's API
 *       (default {@code http://<host>:<port>});
 *   <li>{@code tributary.token-key}: the key token hashes are keyed with (base64, 32 bytes or more);
 *       required with a shared metadata store, so that every replica accepts the same tokens;
 *   <li>{@code tributary.workers.kubernetes.*}: the worker pods of {@code --workers kubernetes}
 *       ({@link #workerPods}, read by {@code KubernetesPool}): {@code image} (required), {@code
 *       namespace}, {@code service-account}, {@code secret-name}, {@code secret-key}, {@code
 *       cpu-per-slot}, {@code memory-per-slot}, {@code data-port}, {@code control-plane}, {@code
 *       pool-id}, {@code owner-deployment}, {@code image-pull-policy}, {@code labels} ({@code server-id}
 *       and {@code owner-pod} are refused, naming what replaced them).
 * </ul>
 *
 * @param objectStore the object store's URL, or null for {@code <data-dir>/checkpoints}
 * @param s3 the S3 settings by the environment-variable names {@code ObjectStores} reads
 * @param dynamo the DynamoDB metadata store, or empty for the embedded one
 * @param workerPods the {@code tributary.workers.kubernetes.*} settings set, by the key's last part
 *     ({@code image}, {@code cpu-per-slot}, ...)
 */
public record ServerConfiguration(String objectStore, Map<String, String> s3, Optional<DynamoSettings> dynamo,
    Duration leaseTime, String advertisedUrl, String tokenKey, Map<String, String> workerPods) {
  /** The prefix of the worker pods' keys. */
  public static final String WORKER_PODS = "tributary.workers.kubernetes.";

  /** Every key a configuration file may set. */
  public static final List<String> KEYS = List.of("tributary.object-store", "tributary.s3.endpoint",
      "tributary.s3.path-style", "tributary.s3.region", "tributary.metadata.store", "tributary.metadata.dynamodb.table",
      "tributary.metadata.dynamodb.region", "tributary.metadata.dynamodb.endpoint",
      "tributary.metadata.dynamodb.create-table", "tributary.leader.lease-time", "tributary.server.advertised-url",
      "tributary.token-key", "tributary.workers.kubernetes.image", "tributary.workers.kubernetes.image-pull-policy",
      "tributary.workers.kubernetes.namespace", "tributary.workers.kubernetes.service-account",
      "tributary.workers.kubernetes.secret-name", "tributary.workers.kubernetes.secret-key",
      "tributary.workers.kubernetes.cpu-per-slot", "tributary.workers.kubernetes.memory-per-slot",
      "tributary.workers.kubernetes.data-port", "tributary.workers.kubernetes.control-plane",
      "tributary.workers.kubernetes.pool-id", "tributary.workers.kubernetes.owner-deployment",
      "tributary.workers.kubernetes.labels",
      // retired: read only so that KubernetesPool can say what took their place
      "tributary.workers.kubernetes.server-id", "tributary.workers.kubernetes.owner-pod");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  public ServerConfiguration {
    s3 = Map.copyOf(s3);
    workerPods = Map.copyOf(workerPods);
  }

  /** Without worker pod settings. */
  public ServerConfiguration(String objectStore, Map<String, String> s3, Optional<DynamoSettings> dynamo,
      Duration leaseTime, String advertisedUrl, String tokenKey) {
    this(objectStore, s3, dynamo, leaseTime, advertisedUrl, tokenKey, Map.of());
  }

  /** The embedded defaults: nothing configured. */
  public static ServerConfiguration defaults() {
    return new ServerConfiguration(null, Map.of(), Optional.empty(), LeaderLease.DEFAULT_TTL, null, null);
  }

  /** Whether several replicas may share the metadata store (it is not the embedded one). */
  public boolean shared() {
    return dynamo.isPresent();
  }

  /** The environment variable of {@code key}, by Micronaut's convention. */
  public static String envName(String key) {
    return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /**
   * The configuration of {@code file} (null: none) and {@code env}.
   *
   * @throws IllegalArgumentException naming the file, key and reason: an unreadable file, an unknown
   *     key, a value that does not parse
   */
  public static ServerConfiguration load(Path file, Map<String, String> env) {
    Map<String, String> values = new LinkedHashMap<>();
    if (file != null) {
      values.putAll(readFile(file));
    }
    for (String key : KEYS) {
      String v = env.get(envName(key));
      if (v != null && !v.isBlank()) {
        values.put(key, v.trim());
      }
    }
    return from(values, env, file == null ? "the environment" : file.toString());
  }

  private static Map<String, String> readFile(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (IOException e) {
      String why = e instanceof java.nio.file.NoSuchFileException ? "no such file"
          : e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
      throw new IllegalArgumentException("configuration file " + file + ": " + why);
    }
    Map<String, String> flat = new LinkedHashMap<>();
    if (root != null && !root.isMissingNode() && !root.isNull()) {
      if (!root.isObject()) {
        throw new IllegalArgumentException("configuration file " + file + ": must be a mapping of keys such as "
            + "tributary.object-store");
      }
      flatten("", root, flat, file);
    }
    for (String key : flat.keySet()) {
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("configuration file " + file + ": unknown key '" + key + "'; known keys: "
            + String.join(", ", KEYS));
      }
    }
    return flat;
  }

  private static void flatten(String prefix, JsonNode node, Map<String, String> out, Path file) {
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
      JsonNode v = e.getValue();
      if (v.isObject()) {
        flatten(key, v, out, file);
      } else if (v.isValueNode() && !v.isNull()) {
        out.put(key, v.asText().trim());
      } else if (!v.isNull()) {
        throw new IllegalArgumentException("configuration file " + file + ": '" + key + "' must be a single value");
      }
    }
  }

  private static ServerConfiguration from(Map<String, String> v, Map<String, String> env, String source) {
    Map<String, String> s3 = new LinkedHashMap<>();
    putIf(s3, "TRIBUTARY_S3_ENDPOINT", v.get("tributary.s3.endpoint"));
    putIf(s3, "TRIBUTARY_S3_PATH_STYLE", bool(v, "tributary.s3.path-style", source).map(String::valueOf).orElse(null));
    putIf(s3, "AWS_REGION", v.getOrDefault("tributary.s3.region", env.get("AWS_REGION")));
    String store = v.getOrDefault("tributary.metadata.store",
        v.containsKey("tributary.metadata.dynamodb.table") ? "dynamodb" : "embedded").toLowerCase(Locale.ROOT);
    Optional<DynamoSettings> dynamo;
    switch (store) {
      case "embedded" -> dynamo = Optional.empty();
      case "dynamodb" -> {
        String table = v.get("tributary.metadata.dynamodb.table");
        if (table == null) {
          throw new IllegalArgumentException(source + ": tributary.metadata.store is dynamodb but no table is named: set "
              + "tributary.metadata.dynamodb.table (" + envName("tributary.metadata.dynamodb.table") + ")");
        }
        Optional<URI> endpoint = Optional.ofNullable(v.get("tributary.metadata.dynamodb.endpoint")).map(e -> uri(e,
            "tributary.metadata.dynamodb.endpoint", source));
        dynamo = Optional.of(new DynamoSettings(table, endpoint,
            Optional.ofNullable(v.getOrDefault("tributary.metadata.dynamodb.region", env.get("AWS_REGION"))),
            bool(v, "tributary.metadata.dynamodb.create-table", source).orElse(false)));
      }
      default -> throw new IllegalArgumentException(source + ": tributary.metadata.store must be embedded or dynamodb, "
          + "not '" + store + "'");
    }
    Duration lease = LeaderLease.DEFAULT_TTL;
    if (v.containsKey("tributary.leader.lease-time")) {
      try {
        lease = Duration.ofMillis(Durations.parseMillis(v.get("tributary.leader.lease-time")));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ": tributary.leader.lease-time: " + e.getMessage());
      }
      if (lease.toMillis() < 1000) {
        throw new IllegalArgumentException(source + ": tributary.leader.lease-time must be at least 1s, not "
            + v.get("tributary.leader.lease-time"));
      }
    }
    String advertised = v.get("tributary.server.advertised-url");
    if (advertised != null) {
      URI u = uri(advertised, "tributary.server.advertised-url", source);
      if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
        throw new IllegalArgumentException(source + ": tributary.server.advertised-url must be an http(s) URL such as "
            + "http://10.0.0.5:8080, not '" + advertised + "'");
      }
    }
    String objectStore = v.get("tributary.object-store");
    if (objectStore != null && objectStore.startsWith("s3://") && URI.create(objectStore).getHost() == null) {
      throw new IllegalArgumentException(source + ": tributary.object-store '" + objectStore + "' names no bucket: use "
          + "s3://bucket/prefix");
    }
    Map<String, String> pods = new LinkedHashMap<>();
    v.forEach((key, value) -> {
      if (key.startsWith(WORKER_PODS)) {
        pods.put(key.substring(WORKER_PODS.length()), value);
      }
    });
    if (pods.containsKey("data-port")) {
      int port;
      try {
        port = Integer.parseInt(pods.get("data-port"));
      } catch (NumberFormatException e) {
        port = 0;
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException(source + ": " + WORKER_PODS + "data-port must be a port (1-65535), not '"
            + pods.get("data-port") + "'");
      }
    }
    if (pods.containsKey("labels") && !pods.get("labels").matches("\\s*([^=,\\s]+=[^=,\\s]*\\s*(,\\s*|$))*")) {
      throw new IllegalArgumentException(source + ": " + WORKER_PODS + "labels must be key=value pairs, "
          + "comma-separated, not '" + pods.get("labels") + "'");
    }
    return new ServerConfiguration(objectStore, s3, dynamo, lease, advertised, v.get("tributary.token-key"), pods);
  }

  private static void putIf(Map<String, String> m, String k, String v) {
    if (v != null && !v.isBlank()) {
      m.put(k, v);
    }
  }

  private static Optional<Boolean> bool(Map<String, String> v, String key, String source) {
    String s = v.get(key);
    if (s == null) {
      return Optional.empty();
    }
    if (!s.equalsIgnoreCase("true") && !s.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(source + ": " + key + " must be true or false, not '" + s + "'");
    }
    return Optional.of(Boolean.parseBoolean(s));
  }

  private static URI uri(String s, String key, String source) {
    try {
      return URI.create(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + key + " is not a URL: '" + s + "'");
    }
  }
}
