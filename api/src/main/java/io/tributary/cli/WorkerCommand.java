package io.tributary.cli;

import io.tributary.boot.ClusterSecret;
import io.tributary.boot.Workers;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tributary worker}: this process runs tasks for a server's worker pool. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = {"Run tasks for a Tributary server (started with --workers external or local:N): register at its "
        + "worker port, run the tasks it places here, report back.",
        "The worker holds nothing that must survive: durable state lives in the server's object store, and its "
            + "cache directory may be wiped whenever it is not running.",
        "It proves it belongs with the cluster secret in TRIBUTARY_CLUSTER_SECRET (the server prints it at its "
            + "first start)."})
final class WorkerCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--control-plane", paramLabel = "HOST:PORT[,HOST:PORT...]", required = true,
      description = "The server's worker port, e.g. localhost:7077 (a scheme such as grpc:// is ignored); with "
          + "several replicas, each one's, comma-separated: the worker registers with the one that leads")
  String controlPlane;

  @Option(names = "--slots", paramLabel = "N", description = "Tasks this worker runs at once (default: cores)")
  Integer slots;

  @Option(names = "--worker-id", paramLabel = "ID", description = "Unique in the pool (default: <host>-<pid>)")
  String workerId;

  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Local working files and cache (default: data/local/<worker id>)")
  Path cacheDir;

  @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
      description = "The address the data port listens on (default: ${DEFAULT-VALUE}; 0.0.0.0 across hosts)")
  String bind;

  @Option(names = "--advertise", paramLabel = "HOST",
      description = "The host other workers reach this one at (default: the bind address, or this host's name)")
  String advertise;

  @Option(names = "--data-port", paramLabel = "PORT", defaultValue = "0",
      description = "The data port (default: any free port)")
  int dataPort;

  @Option(names = "--reattach-grace", paramLabel = "DURATION", converter = io.tributary.cli.client.DurationOption.class,
      description = {"How long the worker keeps running its tasks when it loses its server, for the server that "
          + "takes over (another replica, or the same one restarted) to follow them without a restart (default: 30s; "
          + "0s with --parent-pid: a server's own local workers end with it)"})
  Duration reattachGrace;

  @Option(names = "--parent-pid", paramLabel = "PID",
      description = "Stop when process PID ends (a server gives its local workers its own, so none outlives it)")
  Long parentPid;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    java.util.List<String> addresses = new java.util.ArrayList<>();
    for (String one : controlPlane.split(",")) {
      String address = one.trim().replaceFirst("^[a-z][a-z0-9+.-]*://", "").replaceFirst("/$", "");
      if (!address.matches("[^:/,]+:\\d+")) {
        throw new IllegalArgumentException("--control-plane is HOST:PORT (the server's worker port), or several "
            + "comma-separated, not '" + controlPlane + "'");
      }
      addresses.add(address);
    }
    String address = String.join(",", addresses);
    String secret = System.getenv(ClusterSecret.ENV);
    if (secret == null || secret.isBlank()) {
      throw new IllegalArgumentException(ClusterSecret.ENV + " is not set: give the worker the server's cluster "
          + "secret");
    }
    String host = InetAddress.getLocalHost().getHostName();
    String id = workerId != null ? workerId : host + "-" + ProcessHandle.current().pid();
    String advertised = advertise != null ? advertise : bind.equals("0.0.0.0") ? host : bind;
    int n = slots != null ? slots : Runtime.getRuntime().availableProcessors();
    if (n < 1) {
      throw new IllegalArgumentException("--slots must be at least 1, not " + n);
    }
    ProcessHandle parent = null;
    if (parentPid != null) {
      parent = ProcessHandle.of(parentPid).filter(ProcessHandle::isAlive).orElseThrow(() ->
          new IllegalArgumentException("--parent-pid " + parentPid + " is not running"));
    }
    Workers.Running worker = Workers.start(new Workers.Config(address, id, n,
        cacheDir != null ? cacheDir : Path.of("data", "local", id), bind, advertised, dataPort, secret.trim(),
        reattachGrace != null ? reattachGrace : parent != null ? Duration.ZERO
            : Workers.DEFAULT_REATTACH_GRACE));
    Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "tributary-worker-shutdown"));
    if (parent != null) {
      parent.onExit().thenRun(worker::close);
    }
    err.println("worker " + id + ": " + n + " slots, data at " + worker.dataAddress() + ", registering at "
        + address);
    err.flush();
    String why = worker.awaitStop();
    err.println("worker " + id + " stopped: " + why);
    return why.startsWith("refused") ? 2 : 0;
  }
}
