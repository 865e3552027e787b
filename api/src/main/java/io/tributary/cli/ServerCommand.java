package io.tributary.cli;

import io.tributary.boot.ClusterSecret;
import io.tributary.boot.ServerConfiguration;
import io.tributary.boot.WorkersOption;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.server.TributaryServer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tributary server}: the REST API, the console and in-process workers, in this process. */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = {"Run Tributary as a service: the REST API and the web console on one port, the control plane "
        + "and its workers (in this process, or worker processes: --workers), everything kept under the data "
        + "directory.",
        "Stopping and starting the server keeps every job: running jobs resume from their latest checkpoint.",
        "The administrator token comes from TRIBUTARY_ADMIN_TOKEN; without it, one is created at the first start "
            + "and printed once."})
final class ServerCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
      description = "HTTP port (default: ${DEFAULT-VALUE}; 0: any free port)")
  int port;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Where metadata, checkpoints and local state live "
      + "(default: $TRIBUTARY_DATA_DIR, else ./data)")
  Path dataDir;

  @Option(names = "--workers", paramLabel = "in-process|local:N|external|kubernetes[:N]", defaultValue = "in-process",
      description = {"Where jobs' tasks run: threads of this process (default), N worker processes this server",
          "starts and supervises on this host, worker processes started elsewhere (tributary worker) that",
          "register at the worker port, or worker pods this server creates for each job's attempt through the",
          "Kubernetes API, at most N at once (settings: tributary.workers.kubernetes.* in --config or the",
          "environment; see the README)"})
  String workers;

  @Option(names = "--worker-slots", paramLabel = "N",
      description = {"Slots (tasks at once) of each local worker process, or the most of a worker pod (default: the",
          "number of cores)"})
  Integer workerSlots;

  @Option(names = "--worker-port", paramLabel = "PORT",
      description = "The port workers register at (default: " + WorkersOption.DEFAULT_PORT
          + " for external workers, any free port for local ones)")
  Integer workerPort;

  @Option(names = "--worker-bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
      description = "The address the worker port listens on (default: ${DEFAULT-VALUE}; 0.0.0.0 for workers on "
          + "other hosts)")
  String workerBind;

  @Option(names = "--heartbeat-timeout", paramLabel = "DURATION", defaultValue = "5s",
      converter = io.tributary.cli.client.DurationOption.class,
      description = "A worker silent this long is lost: its tasks restart elsewhere (default: ${DEFAULT-VALUE})")
  java.time.Duration heartbeatTimeout;

  @Option(names = "--reattach-wait", paramLabel = "DURATION", defaultValue = "10s",
      converter = io.tributary.cli.client.DurationOption.class,
      description = {"A running job this server takes over (at start, or as the new leader) waits this long for the "
          + "external workers that still run it to register, and then goes on on them without a restart; else it "
          + "restarts from its latest checkpoint (default: ${DEFAULT-VALUE}; 0s: always restart)"})
  java.time.Duration reattachWait;

  @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to listen on (default: $TRIBUTARY_HOST, else 127.0.0.1: loopback "
      + "only; 0.0.0.0 for every interface, which needs a strong TRIBUTARY_ADMIN_TOKEN)")
  String host;

  @Option(names = "--dev", description = "Dev mode (also TRIBUTARY_DEV_MODE=true): accept a weak TRIBUTARY_ADMIN_TOKEN "
      + "on any address; a server on loopback only is in dev mode anyway")
  boolean dev;

  @Option(names = "--file-root", paramLabel = "DIR", description = "Root of the projects' file directories: jobs of "
      + "project P read and write under DIR/P only (repeatable; default: $TRIBUTARY_FILE_ROOTS, colon-separated, else "
      + "<data-dir>/files); relative paths in specs resolve under the first")
  List<Path> fileRoots = new ArrayList<>();

  @Option(names = "--allow-endpoints", paramLabel = "LIST", description = "Hosts and ports connectors may connect to, "
      + "comma-separated host:port entries (default: $TRIBUTARY_ALLOWED_ENDPOINTS, else loopback:1024-65535; "
      + "'none' for nothing; see the README's security model)")
  String endpoints;

  @Option(names = "--config", paramLabel = "FILE", description = {"Where the server keeps its state: a YAML file of "
      + "tributary.* keys (object store, metadata store, leader lease; default: $TRIBUTARY_CONFIG, else none)",
      "Each key is also an environment variable (tributary.object-store: TRIBUTARY_OBJECT_STORE), which wins; "
          + "with nothing set, everything stays under the data directory. See the README."})
  Path config;

  @Option(names = "--apply", paramLabel = "SPEC", description = "Apply this job spec to project 'default' once the "
      + "server is up (repeatable; applying an unchanged spec changes nothing)")
  List<Path> apply = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Path dir = dataDir != null ? dataDir
        : Path.of(System.getenv().getOrDefault("TRIBUTARY_DATA_DIR", "data"));
    List<String> specs = new ArrayList<>();
    for (Path p : apply) {
      specs.add(Files.readString(p));
    }
    String adminToken = System.getenv("TRIBUTARY_ADMIN_TOKEN");
    WorkersOption pool = WorkersOption.parse(workers,
        workerSlots != null ? workerSlots : Runtime.getRuntime().availableProcessors(), workerBind, workerPort,
        heartbeatTimeout);
    Path configFile = config != null ? config
        : System.getenv("TRIBUTARY_CONFIG") == null || System.getenv("TRIBUTARY_CONFIG").isBlank() ? null
        : Path.of(System.getenv("TRIBUTARY_CONFIG"));
    ServerConfiguration stores = ServerConfiguration.load(configFile, System.getenv());
    TributaryServer server = TributaryServer.start(ServerSettings.config(dir.toAbsolutePath(), port,
        adminToken == null || adminToken.isBlank() ? null : adminToken, host, dev, fileRoots, endpoints, System.getenv())
        .withWorkers(pool).withStores(stores), JobManager.Settings.defaults().withReattachWait(reattachWait));
    server.warnings().forEach(err::println);
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      err.println("tributary: stopping; jobs resume from their latest checkpoint at the next start");
      err.flush();
      server.close();
      stopped.countDown();
    }, "tributary-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    err.println("Tributary is serving on " + server.url() + "  (console: " + server.url() + "/, API: "
        + server.url() + "/v1, data: " + dir.toAbsolutePath() + ")");
    if (stores.shared() || stores.objectStore() != null) {
      err.println("Stores: metadata " + stores.dynamo().map(d -> "DynamoDB table " + d.table()).orElse("embedded")
          + ", objects " + (stores.objectStore() != null ? stores.objectStore() : "under the data directory")
          + (stores.shared() ? "; one replica of several: it runs jobs while it holds the leader lease ("
              + stores.leaseTime().toSeconds() + "s)" : ""));
    }
    server.createdAdminToken().ifPresent(t -> err.println("Administrator token (shown only now; keep it, or set "
        + "TRIBUTARY_ADMIN_TOKEN to choose one): " + t));
    if (server.clusterSecret() != null) {
      err.println("Workers: " + describe(pool) + (server.clusterSecret().created()
          ? "; cluster secret (workers need it in " + ClusterSecret.ENV + "; kept in " + dir.resolve("secrets").resolve("cluster-secret")
              + "): " + server.clusterSecret().value() : ""));
    }
    if (!specs.isEmpty() && stores.shared() && !awaitLead(server, stores.leaseTime().multipliedBy(2))) {
      err.println("--apply: not applied, another replica leads (" + server.jobs().leadership().leaderUrl().orElse("?")
          + "); apply the specs there, or with bin/tributary apply against any replica");
      specs.clear();
    }
    for (int i = 0; i < specs.size(); i++) {
      String name = io.tributary.scheduler.spec.JobSpecs.parse(specs.get(i)).name();
      JobManager.ApplyResult r = server.jobs().apply("default", name, specs.get(i), null);
      err.println("job " + name + ": " + r.outcome().name().toLowerCase(java.util.Locale.ROOT) + " ("
          + apply.get(i) + ")");
    }
    err.flush();
    stopped.await();
    return 0;
  }

  /** Whether this replica leads within {@code wait} (--apply acts on jobs, which only the leader does). */
  private static boolean awaitLead(TributaryServer server, java.time.Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!server.jobs().leadership().leading()) {
      if (System.nanoTime() > deadline || server.jobs().leadership().leaderUrl().isPresent()) {
        return server.jobs().leadership().leading();
      }
      Thread.sleep(100);
    }
    return true;
  }

  private static String describe(WorkersOption w) {
    return switch (w.kind()) {
      case LOCAL -> w.count() + " local worker processes of " + w.slots() + " slots (logs in data/logs/workers)";
      case EXTERNAL -> "external; start them with: TRIBUTARY_CLUSTER_SECRET=... tributary worker --control-plane "
          + w.bindHost() + ":" + w.port();
      case KUBERNETES -> "worker pods per job of up to " + w.slots() + " slots" + (w.count() > 0 ? ", at most "
          + w.count() + " at once" : "") + ", registering at port " + w.port()
          + " (kubectl get pods -l app.kubernetes.io/name=tributary-worker)";
      default -> "in this process";
    };
  }
}
