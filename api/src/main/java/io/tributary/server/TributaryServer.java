package io.tributary.server;

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
import java.util.Optional;

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

  /**
   * @param port 0 for any free port
   * @param adminToken the administrator token; null to keep the stored one, or create one if there
   *     is none (then {@link #createdAdminToken()} has it)
   * @param fileRoots the directories under which file sources and sinks may read and write
   */
  public record Config(Path dataDir, int port, String adminToken, List<Path> fileRoots, WorkersOption workers) {
    public Config {
      fileRoots = List.copyOf(fileRoots);
    }

    /** In-process workers. */
    public Config(Path dataDir, int port, String adminToken, List<Path> fileRoots) {
      this(dataDir, port, adminToken, fileRoots, WorkersOption.IN_PROCESS);
    }

    /** File sources and sinks may use the working directory and the data directory; in-process workers. */
    public Config(Path dataDir, int port, String adminToken) {
      this(dataDir, port, adminToken, List.of(Path.of("").toAbsolutePath(), dataDir));
    }

    /** The same with {@code w} as its workers. */
    public Config withWorkers(WorkersOption w) {
      return new Config(dataDir, port, adminToken, fileRoots, w);
    }
  }

  private final ApplicationContext context;
  private final JobManager jobs;
  private final EmbeddedServer server;
  private final String adminToken;
  private final boolean adminTokenCreated;
  private volatile ClusterSecret clusterSecret;

  private TributaryServer(ApplicationContext context, JobManager jobs, String adminToken, boolean created) {
    this.context = context;
    this.jobs = jobs;
    this.server = context.getBean(EmbeddedServer.class);
    this.adminToken = adminToken;
    this.adminTokenCreated = created;
  }

  /** Opens the data directory, resumes its jobs and starts serving. */
  public static TributaryServer start(Config config) {
    return start(config, JobManager.Settings.defaults());
  }

  /** Like {@link #start(Config)}, with control-plane settings of the caller's (tests, benchmarks). */
  public static TributaryServer start(Config config, JobManager.Settings settings) {
    if (config.workers().kind() == WorkersOption.Kind.IN_PROCESS) {
      return start(config, EmbeddedServices.controlPlane(config.dataDir(), settings));
    }
    ClusterSecret secret = ClusterSecret.load(config.dataDir());
    TributaryServer s = start(config, EmbeddedServices.controlPlane(config.dataDir(), settings, config.workers(),
        secret));
    s.clusterSecret = secret;
    return s;
  }

  /** Serves {@code jobs}, a control plane the caller opened (the server owns it from now on). */
  public static TributaryServer start(Config config, JobManager jobs) {
    ApplicationContext context = null;
    try {
      Optional<String> created = jobs.tokens().bootstrapAdmin(config.adminToken());
      context = ApplicationContext.builder()
          .deduceEnvironment(false)
          .banner(false)
          .properties(properties(config.port()))
          .singletons(jobs, new FileRoots(config.fileRoots()))
          .start();
      context.getBean(EmbeddedServer.class).start();
      return new TributaryServer(context, jobs, created.orElse(config.adminToken()), created.isPresent());
    } catch (RuntimeException e) {
      if (context != null) {
        context.close();
      }
      jobs.close();
      throw e;
    }
  }

  static Map<String, Object> properties(int port) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.application.name", "tributary");
    p.put("micronaut.server.port", port);
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
