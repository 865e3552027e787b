package io.tributary.bench;

import io.tributary.cli.client.CliFailure;
import io.tributary.cli.client.DurationOption;
import io.tributary.cli.client.ExitCodes;
import io.tributary.cli.client.Human;
import io.tributary.cli.client.ServerConnection;
import io.tributary.cli.client.RawJobSpec;
import io.tributary.cli.client.ServerOptions;
import io.tributary.cli.client.Table;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.client.ApiException;
import io.tributary.client.model.DesiredState;
import io.tributary.client.model.JobApply;
import io.tributary.server.TributaryServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench api}: latency and throughput of the REST API through the generated Java
 * client. Defines {@code --jobs} jobs (stopped, so that none runs), then drives {@code GET} of a
 * job and {@code PUT} of its unchanged spec (an idempotent re-apply) at {@code --rate} each for
 * {@code --duration}, on an open-loop schedule ({@link OpenLoopSchedule}); then measures the
 * throughput {@code --clients} closed-loop clients sustain for {@code --burst}. Against an
 * embedded server in a temporary directory (in this JVM), or the one {@code --server} names.
 */
@Command(name = "api", mixinStandardHelpOptions = true,
    description = "Latency and throughput of the REST API (GET and PUT of a job).")
public final class ApiBench implements Callable<Integer> {
  static final double TARGET_P99_MILLIS = 50;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SETUP_THREADS = 8;
  private static final int OPEN_LOOP_THREADS = 64;

  @Option(names = "--server", paramLabel = "URL", description = "benchmark this server (default: an embedded one)")
  String server;

  @Option(names = "--token", paramLabel = "TOKEN",
      description = "the API token for --server (default: $TRIBUTARY_TOKEN)")
  String token;

  @Option(names = "--project", defaultValue = "default", description = "the project (default: ${DEFAULT-VALUE})")
  String project = "default";

  @Option(names = "--jobs", defaultValue = "1000",
      description = "jobs defined before the load (default: ${DEFAULT-VALUE})")
  int jobs = 1000;

  @Option(names = "--rate", defaultValue = "50",
      description = "requests per second of GET and of PUT each (default: ${DEFAULT-VALUE})")
  double rate = 50;

  @Option(names = "--duration", defaultValue = "30s", converter = DurationOption.class,
      description = "how long the open-loop load lasts (default: ${DEFAULT-VALUE})")
  Duration duration = Duration.ofSeconds(30);

  @Option(names = "--clients", defaultValue = "4", description = "closed-loop clients (default: ${DEFAULT-VALUE})")
  int clients = 4;

  @Option(names = "--burst", defaultValue = "10s", converter = DurationOption.class,
      description = "how long the closed loop runs per request kind; 0 skips it (default: ${DEFAULT-VALUE})")
  Duration burst = Duration.ofSeconds(10);

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = "data directory of the embedded server (default: a temporary one, deleted)")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    if (jobs < 1 || clients < 1) {
      throw new CliFailure(ExitCodes.INVALID, "--jobs and --clients must be at least 1");
    }
    OpenLoopSchedule schedule = new OpenLoopSchedule(rate, duration);
    try (Target target = server == null ? Target.embedded(workDir) : Target.remote(server, token)) {
      ServerConnection conn = new ServerConnection(target.url, target.token, project);
      System.out.printf(Locale.ROOT, "bench api: %s%s, project %s, %,d jobs%n", target.url,
          target.server != null ? " (embedded, in this JVM)" : "", project, jobs);
      List<JobApply> applies = new ArrayList<>(jobs);
      for (int i = 0; i < jobs; i++) {
        applies.add(new JobApply().spec(new RawJobSpec(spec(jobName(i)))).desiredState(DesiredState.STOPPED));
      }
      try {
        define(conn, applies);
        Table figures = new Table("REQUEST", "LOAD", "OK", "ERRORS", "REQ/S", "P50", "P90", "P99", "MAX");
        Request get = i -> conn.jobs.getJob(project, jobName(i % jobs));
        Request put = i -> conn.jobs.applyJob(project, jobName(i % jobs), applies.get((int) (i % jobs)), null, null);
        List<LatencyRecorder.Summary> open = openLoop(schedule, List.of(get, put), conn);
        String load = String.format(Locale.ROOT, "open %s/s", number(rate));
        row(figures, "GET job", load, open.get(0));
        row(figures, "PUT job", load, open.get(1));
        if (!burst.isZero()) {
          String closed = "closed x" + clients;
          row(figures, "GET job", closed, closedLoop(get, conn));
          row(figures, "PUT job", closed, closedLoop(put, conn));
        }
        System.out.printf(Locale.ROOT, "open loop: %s requests/s of each for %s, latency from the intended send time; "
            + "closed loop: %d clients for %s each%n",
            number(rate), Human.duration(duration), clients, Human.duration(burst));
        System.out.print(figures.render());
        System.out.println(verdict(open.get(0), open.get(1), rate));
        errors(open);
      } finally {
        if (target.server == null) {
          deleteJobs(conn);
        }
      }
    } catch (CliFailure f) {
      return f.report();
    }
    return ExitCodes.OK;
  }

  static String jobName(long i) {
    return String.format(Locale.ROOT, "bench-api-%04d", i);
  }

  /** The spec of every benchmark job: a throttled generator into a blackhole (stopped, it never runs). */
  static ObjectNode spec(String name) {
    ObjectNode spec = JSON.createObjectNode().put("name", name);
    spec.putObject("sources").putObject("gen").put("type", "datagen").put("keys", 100).put("maxRecordsPerSecond", 10);
    spec.putObject("sinks").putObject("out").put("input", "gen").put("type", "blackhole");
    return spec;
  }

  /** One line: whether both p99 latencies of the open loop stayed under the target. */
  static String verdict(LatencyRecorder.Summary get, LatencyRecorder.Summary put, double rate) {
    boolean met = get.errors() == 0 && put.errors() == 0
        && millis(get.p99()) < TARGET_P99_MILLIS && millis(put.p99()) < TARGET_P99_MILLIS;
    return String.format(Locale.ROOT, "target p99 < %s ms at %s req/s: %s (GET %s, PUT %s%s)",
        number(TARGET_P99_MILLIS), number(rate), met ? "met" : "missed", ms(get.p99()), ms(put.p99()),
        get.errors() + put.errors() > 0 ? ", with errors" : "");
  }

  private void define(ServerConnection conn, List<JobApply> applies) throws Exception {
    LatencyRecorder defined = new LatencyRecorder();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(SETUP_THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < jobs; i++) {
        int job = i;
        done.add(pool.submit(() -> {
          long t0 = System.nanoTime();
          conn.jobs.applyJob(project, jobName(job), applies.get(job), null, null);
          defined.record(System.nanoTime() - t0);
          return null;
        }));
      }
      for (Future<?> f : done) {
        await(f, conn);
      }
      LatencyRecorder.Summary s = defined.summary(System.nanoTime() - start);
      System.out.printf(Locale.ROOT, "defined %,d jobs (PUT, desiredState STOPPED) in %s: %s/s, p99 %s%n", jobs,
          Human.duration(Duration.ofNanos(System.nanoTime() - start)), number(s.perSecond()), ms(s.p99()));
      for (int i = 0; i < jobs; i++) { // read each back once: the server's read path warms up, and every job exists
        int job = i;
        done.set(i, pool.submit(() -> conn.jobs.getJob(project, jobName(job))));
      }
      for (Future<?> f : done) {
        await(f, conn);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void await(Future<?> f, ServerConnection conn) throws InterruptedException {
    try {
      f.get();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof ApiException api) {
        throw conn.failure(api, "");
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private List<LatencyRecorder.Summary> openLoop(OpenLoopSchedule schedule, List<Request> requests,
      ServerConnection conn) throws InterruptedException {
    List<LatencyRecorder> recorders = new ArrayList<>();
    List<AtomicLong> lastDone = new ArrayList<>();
    List<ExecutorService> pools = new ArrayList<>();
    List<Thread> dispatchers = new ArrayList<>();
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    for (Request request : requests) {
      LatencyRecorder recorder = new LatencyRecorder();
      AtomicLong last = new AtomicLong(start);
      ExecutorService pool = Executors.newFixedThreadPool(OPEN_LOOP_THREADS);
      recorders.add(recorder);
      lastDone.add(last);
      pools.add(pool);
      dispatchers.add(new Thread(() -> {
        for (long i = 0; i < schedule.requests(); i++) {
          long due = schedule.dueNanos(start, i);
          for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait);
          }
          long n = i;
          pool.execute(() -> call(request, n, due, recorder, last, conn));
        }
      }, "bench-api-dispatch-" + dispatchers.size()));
    }
    dispatchers.forEach(Thread::start);
    for (Thread t : dispatchers) {
      t.join();
    }
    List<LatencyRecorder.Summary> result = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      pools.get(i).shutdown();
      if (!pools.get(i).awaitTermination(ServerConnection.READ_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS)) {
        pools.get(i).shutdownNow();
      }
      result.add(recorders.get(i).summary(lastDone.get(i).get() - start));
    }
    return result;
  }

  private static void call(Request request, long i, long due, LatencyRecorder recorder, AtomicLong last,
      ServerConnection conn) {
    try {
      request.send(i);
      long done = System.nanoTime();
      recorder.record(OpenLoopSchedule.latency(due, done));
      last.accumulateAndGet(done, Math::max);
    } catch (ApiException e) {
      recorder.error(conn.failure(e, "").getMessage());
    } catch (RuntimeException e) {
      recorder.error(String.valueOf(e));
    }
  }

  private LatencyRecorder.Summary closedLoop(Request request, ServerConnection conn) throws InterruptedException {
    LatencyRecorder recorder = new LatencyRecorder();
    AtomicLong next = new AtomicLong();
    long start = System.nanoTime();
    long end = start + burst.toNanos();
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      threads.add(new Thread(() -> {
        while (System.nanoTime() < end) {
          long t0 = System.nanoTime();
          try {
            request.send(next.getAndIncrement());
            recorder.record(System.nanoTime() - t0);
          } catch (ApiException e) {
            recorder.error(conn.failure(e, "").getMessage());
          }
        }
      }, "bench-api-client-" + c));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    return recorder.summary(System.nanoTime() - start);
  }

  private void deleteJobs(ServerConnection conn) {
    ExecutorService pool = Executors.newFixedThreadPool(SETUP_THREADS);
    for (int i = 0; i < jobs; i++) {
      String name = jobName(i);
      pool.execute(() -> {
        try {
          conn.jobs.deleteJob(project, name, null, null);
        } catch (ApiException ignored) {
          // not defined (the run stopped early) or already gone
        }
      });
    }
    pool.shutdown();
    try {
      pool.awaitTermination(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void errors(List<LatencyRecorder.Summary> summaries) {
    for (LatencyRecorder.Summary s : summaries) {
      if (s.firstError() != null) {
        System.out.println("first error: " + s.firstError());
      }
    }
  }

  private static void row(Table t, String request, String load, LatencyRecorder.Summary s) {
    t.row(request, load, String.format(Locale.ROOT, "%,d", s.count()), String.format(Locale.ROOT, "%,d", s.errors()),
        number(s.perSecond()), ms(s.p50()), ms(s.p90()), ms(s.p99()), ms(s.max()));
  }

  static String ms(long nanos) {
    double ms = millis(nanos);
    return String.format(Locale.ROOT, ms < 10 ? "%.2f ms" : ms < 100 ? "%.1f ms" : "%,.0f ms", ms);
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

  private static String number(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%,.1f", v);
  }

  /** One request of the load; {@code i} counts the requests of its kind. */
  @FunctionalInterface
  interface Request {
    void send(long i) throws ApiException;
  }

  /** The server under test: embedded (stopped and its directory deleted on close) or remote. */
  private static final class Target implements AutoCloseable {
    final String url;
    final String token;
    final TributaryServer server;
    final Path tempDir;

    private Target(String url, String token, TributaryServer server, Path tempDir) {
      this.url = url;
      this.token = token;
      this.server = server;
      this.tempDir = tempDir;
    }

    static Target embedded(Path workDir) throws IOException {
      Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("tributary-bench-api");
      TributaryServer server = TributaryServer.start(new TributaryServer.Config(dir, 0, null));
      return new Target(server.url().toString().replaceAll("/+$", ""), server.adminToken(), server,
          workDir == null ? dir : null);
    }

    static Target remote(String url, String token) {
      ServerOptions options = ServerOptions.of(url, token);
      return new Target(options.url(), options.token(), null, null);
    }

    @Override
    public void close() {
      if (server != null) {
        server.close();
      }
      if (tempDir != null) {
        try (Stream<Path> files = Files.walk(tempDir)) {
          files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
