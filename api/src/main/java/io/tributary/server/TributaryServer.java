package io.tributary.server;

import static io.tributary.protocol.Causes.causedBy;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tributary.boot.ClusterSecret;
import io.tributary.boot.EmbeddedServices;
import io.tributary.boot.WorkersOption;
import io.tributary.scheduler.lifecycle.JobManager;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import io.tributary.boot.ServerConfiguration;
import io.tributary.boot.ServerStorage;
import io.tributary.connect.Endpoints;
import io.tributary.connect.StorageRoots;
import io.tributary.scheduler.policy.Quotas;
import io.tributary.scheduler.policy.TenantPolicy;

/**
 * The whole service in one process: the REST API (Micronaut, on the interfaces generated from
 * {@code openapi/tributary.yaml}), the console at {@code /}, and the control plane (by default the
 * embedded one, with in-process workers over one data directory: {@link EmbeddedServices}).
 * Stopping and starting a server over the same directory keeps every job; running jobs resume from
 * their latest checkpoint.
 */
public final class TributaryServer implements AutoCloseable {
  /** The largest request body accepted (413 beyond). */
  public static final long MAX_REQUEST_BYTES = 1024 * 1024;

  /** The address a server listens on unless told otherwise: loopback only. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /**
   * @param port 0 for any free port
   * @param adminToken the administrator token; null to keep the stored one, or create one if there
   *     is none (then {@link #createdAdminToken()} has it)
   * @param fileRoots the roots of the projects' file directories: a job of project {@code p} may read
   *     and write under {@code <root>/p} only (relative paths resolve under the first root's)
   * @param host the address to listen on ({@link #DEFAULT_HOST}; {@code 0.0.0.0} for every interface)
   * @param endpoints the endpoint allow-list of connectors ({@link Endpoints}); the server's own
   *     port is refused on loopback whatever it says
   * @param quotas every project's quotas
   * @param devMode accept a weak administrator token ({@link AdminTokens}); implied by a loopback host
   * @param metricsToken a token that may read {@code GET /metrics} only, or null
   * @param tokenKey the token key (base64) instead of {@code <data>/secrets/token.key}, or null
   * @param workers where jobs' tasks run ({@link WorkersOption#IN_PROCESS}: threads of this process)
   * @param stores the metadata and object stores ({@link ServerConfiguration#defaults()}: the embedded
   *     ones under the data directory); a shared metadata store makes this server one replica of several
   */
  public record Config(Path dataDir, int port, String adminToken, List<Path> fileRoots, String host,
      String endpoints, Quotas quotas, boolean devMode, String metricsToken, String tokenKey, WorkersOption workers,
      ServerConfiguration stores) {
    public Config {
      Objects.requireNonNull(stores, "stores");
      Objects.requireNonNull(workers, "workers");
      fileRoots = List.copyOf(fileRoots);
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(endpoints, "endpoints");
      Objects.requireNonNull(quotas, "quotas");
    }

    /** The defaults, with file directories under {@code fileRoots}. */
    public Config(Path dataDir, int port, String adminToken, List<Path> fileRoots) {
      this(dataDir, port, adminToken, fileRoots, DEFAULT_HOST, Endpoints.LOOPBACK_DEFAULT, Quotas.DEFAULTS, false,
          null, null, WorkersOption.IN_PROCESS, ServerConfiguration.defaults());
    }

    /** The defaults: file directories under {@code <data>/files}, loopback only, default quotas, in-process workers. */
    public Config(Path dataDir, int port, String adminToken) {
      this(dataDir, port, adminToken, List.of(ServerStorage.defaultFileRoot(dataDir)));
    }

    public Config withHost(String h) {
      return new Config(dataDir, port, adminToken, fileRoots, h, endpoints, quotas, devMode, metricsToken, tokenKey,
          workers, stores);
    }

    public Config withEndpoints(String e) {
      return new Config(dataDir, port, adminToken, fileRoots, host, e, quotas, devMode, metricsToken, tokenKey,
          workers, stores);
    }

    public Config withQuotas(Quotas q) {
      return new Config(dataDir, port, adminToken, fileRoots, host, endpoints, q, devMode, metricsToken, tokenKey,
          workers, stores);
    }

    public Config withDevMode(boolean d) {
      return new Config(dataDir, port, adminToken, fileRoots, host, endpoints, quotas, d, metricsToken, tokenKey,
          workers, stores);
    }

    public Config withMetricsToken(String t) {
      return new Config(dataDir, port, adminToken, fileRoots, host, endpoints, quotas, devMode, t, tokenKey,
          workers, stores);
    }

    public Config withTokenKey(String k) {
      return new Config(dataDir, port, adminToken, fileRoots, host, endpoints, quotas, devMode, metricsToken, k,
          workers, stores);
    }

    /** The same with {@code s} as its stores. */
    public Config withStores(ServerConfiguration s) {
      return new Config(dataDir, port, adminToken, fileRoots, host, endpoints, quotas, devMode, metricsToken, tokenKey,
          workers, s);
    }

    /** Whether the host is a loopback address, which only this machine can reach. */
    public boolean loopbackOnly() {
      return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
    }

    /** The same with {@code w} as its workers. */
    public Config withWorkers(WorkersOption w) {
      return new Config(dataDir, port, adminToken, fileRoots, host, endpoints, quotas, devMode, metricsToken, tokenKey,
          w, stores);
    }
  }

  private final ApplicationContext context;
  private final JobManager jobs;
  private final EmbeddedServer server;
  private final String adminToken;
  private final boolean adminTokenCreated;
  private final List<String> warnings;
  private volatile ClusterSecret clusterSecret;

  private TributaryServer(ApplicationContext context, JobManager jobs, String adminToken, boolean created,
      List<String> warnings) {
    this.context = context;
    this.jobs = jobs;
    this.server = context.getBean(EmbeddedServer.class);
    this.adminToken = adminToken;
    this.adminTokenCreated = created;
    this.warnings = List.copyOf(warnings);
  }

  /** Opens the data directory, resumes its jobs and starts serving. */
  public static TributaryServer start(Config config) {
    return start(config, JobManager.Settings.defaults());
  }

  /**
   * Like {@link #start(Config)}, with control-plane settings of the caller's (tests, benchmarks);
   * the config's file roots, endpoints, quotas and token key replace the settings' policy and key.
   *
   * @throws IllegalArgumentException with one line saying what is wrong with the config (a weak
   *     administrator token, a file root that overlaps the data directory's own, an endpoint list
   *     that does not parse)
   */
  public static TributaryServer start(Config config, JobManager.Settings settings) {
    String warning = AdminTokens.check(config.adminToken(), config.devMode() || config.loopbackOnly());
    ServerStorage.prepareFileRoots(config.dataDir(), config.fileRoots());
    Set<Integer> ownPorts = ConcurrentHashMap.newKeySet();
    if (config.port() > 0) {
      ownPorts.add(config.port());
    }
    Endpoints endpoints = Endpoints.parse(config.endpoints()).exceptLoopbackPorts(ownPorts);
    TenantPolicy policy = new TenantPolicy(StorageRoots.of(config.fileRoots()), endpoints, config.quotas());
    String tokenKey = config.tokenKey() != null ? config.tokenKey() : config.stores().tokenKey();
    if (config.stores().shared() && (tokenKey == null || tokenKey.isBlank())) {
      throw new IllegalArgumentException("with a shared metadata store every replica must key token hashes alike: set "
          + "TRIBUTARY_TOKEN_KEY (tributary.token-key) to the same base64 key of 32 random bytes on every replica "
          + "(openssl rand -base64 32)");
    }
    byte[] key = ServerStorage.tokenKey(config.dataDir(), tokenKey);
    JobManager.Settings withPolicy = settings.withPolicy(policy).withTokenKey(key);
    List<String> warnings = warning == null ? List.of() : List.of(warning);
    boolean inProcess = config.workers().kind() == WorkersOption.Kind.IN_PROCESS;
    ClusterSecret secret = inProcess ? null : ClusterSecret.load(config.dataDir());
    TributaryServer server = start(config, EmbeddedServices.controlPlane(config.dataDir(), withPolicy,
        config.workers(), secret, config.stores()), warnings);
    server.clusterSecret = secret;
    ownPorts.add(server.port());
    if (config.stores().shared()) {
      server.jobs.contendForLead(config.stores().advertisedUrl() != null ? config.stores().advertisedUrl()
          : server.advertisedUrl(config.host()));
    }
    return server;
  }

  /** Where other replicas reach this one when no URL is configured: its host and port. */
  private String advertisedUrl(String host) {
    String h = host;
    if (h.equals("0.0.0.0") || h.equals("::") || h.equals("[::]")) {
      try {
        h = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.io.IOException e) {
        h = "localhost";
      }
    }
    return "http://" + (h.contains(":") && !h.startsWith("[") ? "[" + h + "]" : h) + ":" + port();
  }

  /** Serves {@code jobs}, a control plane the caller opened (the server owns it from now on). */
  public static TributaryServer start(Config config, JobManager jobs) {
    return start(config, jobs, List.of());
  }

  private static TributaryServer start(Config config, JobManager jobs, List<String> warnings) {
    ApplicationContext context = null;
    try {
      Optional<String> created = jobs.tokens().bootstrapAdmin(config.adminToken());
      context = ApplicationContext.builder()
          .deduceEnvironment(false)
          .banner(false)
          .properties(properties(config.port(), config.host()))
          .singletons(jobs, new MetricsAccess(config.metricsToken()))
          .start();
      try {
        context.getBean(EmbeddedServer.class).start();
      } catch (RuntimeException e) {
        if (causedBy(e, java.net.BindException.class)) {
          throw new java.io.UncheckedIOException("port " + config.port() + " on " + config.host() + " is in use (another"
              + " Tributary server?): stop what listens there, or serve on another port (--port)",
              new java.io.IOException(e.getMessage(), e));
        }
        throw e;
      }
      return new TributaryServer(context, jobs, created.orElse(config.adminToken()), created.isPresent(), warnings);
    } catch (RuntimeException e) {
      if (context != null) {
        context.close();
      }
      jobs.close();
      throw e;
    }
  }

  static Map<String, Object> properties(int port, String host) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.application.name", "tributary");
    p.put("micronaut.server.port", port);
    p.put("micronaut.server.host", host);
    p.put("micronaut.server.max-request-size", MAX_REQUEST_BYTES);
    p.put("micronaut.server.thread-selection", "AUTO");
    p.put("micronaut.security.enabled", true);
    p.put("micronaut.security.reject-not-found", false);
    p.put("micronaut.security.intercept-url-map", List.of(
        Map.of("pattern", "/", "access", List.of("isAnonymous()")),
        Map.of("pattern", "/index.html", "access", List.of("isAnonymous()")),
        Map.of("pattern", "/assets/**", "access", List.of("isAnonymous()")),
        Map.of("pattern", "/favicon.svg", "access", List.of("isAnonymous()"))));
    p.put("micronaut.router.static-resources.console.enabled", true);
    p.put("micronaut.router.static-resources.console.paths", List.of("classpath:META-INF/tributary-console"));
    p.put("micronaut.router.static-resources.console.mapping", "/**");
    p.put("micronaut.serde.deserialization.ignore-unknown", false);
    p.put("micronaut.serde.serialization.inclusion", "NON_ABSENT");
    return p;
  }

  public int port() {
    return server.getPort();
  }

  /** {@code http://localhost:<port>}. */
  public URI url() {
    return URI.create("http://localhost:" + port());
  }

  /** Warnings about the config to show at start (a weak administrator token accepted in dev mode). */
  public List<String> warnings() {
    return warnings;
  }

  /** The administrator token if this process knows it (given, or created now); else null. */
  public String adminToken() {
    return adminToken;
  }

  /** The administrator token, if this start created it: to be shown once. */
  public Optional<String> createdAdminToken() {
    return adminTokenCreated ? Optional.of(adminToken) : Optional.empty();
  }

  public JobManager jobs() {
    return jobs;
  }

  /** The cluster secret of the worker processes, or null with in-process workers. */
  public ClusterSecret clusterSecret() {
    return clusterSecret;
  }

  /** Stops serving, then the control plane: jobs keep their desired state for the next start. */
  @Override
  public void close() {
    try {
      context.close();
    } finally {
      jobs.close();
    }
  }
}
