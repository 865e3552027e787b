package io.tributary.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.boot.ControlTests;
import io.tributary.connectors.kafka.KafkaBroker;
import io.tributary.scheduler.metadata.FencedWrites;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.dynamo.DynamoMetadataStore;
import io.tributary.scheduler.metadata.dynamo.DynamoSettings;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two control-plane replicas (real server processes, each with a local worker process) on
 * DynamoDB (dynalite) and S3 (S3Proxy): one leads, the other follows. The leader is killed with
 * {@code kill -9} five times at random moments and restarted each time; the other replica takes
 * the lease, restarts the job from its latest checkpoint on its own worker, and the job's committed
 * output is exactly that of an uninterrupted run. A leader paused with SIGSTOP past its lease and
 * then resumed cannot advance a checkpoint pointer, change a status or commit a sink. With external
 * worker processes, which outlive the leader, the new leader takes the running attempt over instead
 * of restarting the job.
 */
class LeaderFailoverIT {
  private static final String P = "default";
  private static final int KILLS = 5;
  /** The lease time: 4 s keeps the suite short; -Dtributary.it.lease=10s measures with the default. */
  private static final String LEASE = System.getProperty("tributary.it.lease", "4s");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static CloudStores stores;
  private static KafkaBroker kafka;

  @TempDir
  Path tmp;

  private final List<Replica> replicas = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    stores = CloudStores.start();
    kafka = KafkaBroker.start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (kafka != null) {
      kafka.close();
    }
    if (stores != null) {
      stores.close();
    }
  }

  @AfterEach
  void killReplicas(org.junit.jupiter.api.TestInfo test) throws Exception {
    for (Replica r : replicas) {
      if (r.alive()) {
        ProcessHandle.of(r.pid()).ifPresent(h -> h.descendants().forEach(ProcessHandle::destroyForcibly));
        r.kill();
      }
    }
    // the replicas' and their workers' logs, for a failure's post-mortem
    Path logs = Path.of("target", "cloud-it-logs", test.getTestMethod().orElseThrow().getName());
    Path from = tmp.resolve("replicas");
    if (Files.exists(from)) {
      try (var files = Files.walk(from)) {
        for (Path f : files.filter(f -> f.toString().endsWith(".log") && (f.getParent().equals(from)
            || f.getParent().getFileName().toString().equals("workers") && f.toString().contains("/logs/"))).toList()) {
          Path to = logs.resolve(from.relativize(f).toString().replace('/', '_'));
          Files.createDirectories(to.getParent());
          Files.copy(f, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private List<Replica> twoReplicas(String table, String prefix, List<String> extra) throws Exception {
    return twoReplicas(table, prefix, extra, false);
  }

  private List<Replica> twoReplicas(String table, String prefix, List<String> extra, boolean external)
      throws Exception {
    Path config = tmp.resolve(table + ".yaml");
    Files.writeString(config, stores.configFile(prefix, table, LEASE));
    Map<String, String> env = new HashMap<>(CloudStores.env());
    for (String name : List.of("a", "b")) {
      Replica r = new Replica(name, config, tmp.resolve("replicas"), env, extra, external);
      replicas.add(r);
      r.start();
    }
    for (Replica r : replicas) {
      await(r.name + " serves", Duration.ofSeconds(90), () -> r.role() != null);
    }
    await("one replica leads", Duration.ofSeconds(30), () -> leader().isPresent());
    return replicas;
  }

  private Optional<Replica> leader() {
    return replicas.stream().filter(Replica::alive).filter(r -> "LEADER".equals(r.role())).findFirst();
  }

  /**
   * Five leader kills under an exactly-once Kafka job and API load. On failure it writes thread
   * dumps of the replicas to {@code target/cloud-it-logs/} and the jobs' events to its message.
   */
  @Timeout(420)
  @Test
  void kafkaExactlyOnceThroughFiveLeaderKills() throws Exception {
    int partitions = 3;
    kafka.createTopic("ha-clicks", partitions);
    kafka.createTopic("ha-counts", partitions);
    Map<String, Long> expected = produceClicks("ha-clicks", partitions, 30_000);
    twoReplicas("tributary-ha", "ha", List.of());
    String spec = countsSpec("ha-clicks", "ha-counts", "ha-it");
    String body = applyBody(spec);
    Replica follower = replicas.stream().filter(r -> !"LEADER".equals(r.role())).findFirst().orElseThrow();
    HttpResponse<String> applied = follower.send("PUT", "/v1/projects/default/jobs/counts", body);
    assertThat(applied.statusCode()).as("apply through the follower: %s", applied.body()).isIn(200, 201);

    awaitCheckpointAfter(follower, Instant.now().minusSeconds(1), "the job runs");
    HttpResponse<String> metrics = follower.send("GET", "/v1/projects/default/jobs/counts/metrics", null);
    assertThat(metrics.statusCode()).as("the follower forwards a metrics read to the leader: %s", metrics.body())
        .isEqualTo(200);
    assertThat(JSON.readTree(metrics.body()).path("operators").size()).as(metrics.body()).isGreaterThan(0);

    Load load = new Load(body);
    load.start();
    List<String> figures = new ArrayList<>();
    Random random = new Random();
    long seed = random.nextLong();
    random.setSeed(seed);
    System.out.println("LeaderFailoverIT seed " + seed);
    try {
      for (int k = 0; k < KILLS; k++) {
        Replica lead = awaitLeader();
        Instant since = Instant.now();
        awaitCheckpointAfter(lead, since.minusSeconds(1), "the job runs and checkpoints under " + lead.name);
        LockSupport.parkNanos(Duration.ofMillis(200 + random.nextInt(2000)).toNanos()); // a random moment
        load.dead.add(lead.name);
        Instant killed = Instant.now();
        lead.kill();
        Replica survivor = replicas.stream().filter(r -> r != lead).findFirst().orElseThrow();
        awaitCheckpointAfter(survivor, killed, "a checkpoint completes under the new leader after kill " + (k + 1));
        figures.add(String.format("kill %d of %s: first checkpoint under the new leader after %d ms", k + 1, lead.name,
            Duration.between(killed, Instant.now()).toMillis()));
        figures.addAll(eventsSince(survivor, "counts", killed));
        lead.start();
        await(lead.name + " serves again", Duration.ofSeconds(90), () -> lead.role() != null);
        load.dead.remove(lead.name);
      }
      Map<String, Long> committed = new TreeMap<>();
      await("every window result is committed", Duration.ofSeconds(180), () -> {
        committed.clear();
        committed.putAll(readCommitted("ha-counts", partitions));
        return committed.size() >= expected.size();
      });
      assertThat(committed).as("committed window results (read_committed)").isEqualTo(expected);
    } finally {
      load.stop();
      figures.forEach(System.out::println);
      System.out.println(load.report());
    }
    assertThat(load.failedReads).as("reads that failed on surviving replicas: %s", load.failures).isEmpty();
    assertThat(load.failedWrites).as("writes refused otherwise than with 503 and Retry-After: %s", load.failures)
        .isEmpty();
  }

  @Timeout(300)
  @Test
  void aLeaderPausedPastItsLeaseCannotDecideAnythingWhenItResumes() throws Exception {
    Path root = tmp.resolve("files");
    Path out = root.resolve(P).resolve("out");
    String spec = ControlTests.bidsPerAuction(out, 1000, "300ms", "").replace("events: 20000", "events: 30000");
    List<String> expected = ControlTests.reference(spec, out);
    deleteTree(out);
    twoReplicas("tributary-pause", "pause", List.of("--file-root", root.toString()));
    Replica old = awaitLeader();
    HttpResponse<String> applied = old.send("PUT", "/v1/projects/default/jobs/bids",
        applyBody(spec));
    assertThat(applied.statusCode()).as(applied.body()).isIn(200, 201);
    awaitCheckpointAfter(old, Instant.now().minusSeconds(1), "the job checkpoints under " + old.name);
    Replica next = replicas.stream().filter(r -> r != old).findFirst().orElseThrow();
    try (MetadataStore metadata = DynamoMetadataStore.open(new DynamoSettings("tributary-pause",
        Optional.of(URI.create(stores.dynamoEndpoint())), Optional.of("us-east-1"), false))) {
      String pointer = "jobs/default--bids/latest";
      long before = FencedWrites.read(metadata, pointer).orElseThrow().epoch();
      signal(old.pid(), "STOP");
      Instant paused = Instant.now();
      await(next.name + " takes over", Duration.ofSeconds(30), () -> "LEADER".equals(next.role()));
      awaitCheckpointAfter(next, paused, "the job checkpoints under " + next.name);
      long runEpoch = FencedWrites.read(metadata, pointer).orElseThrow().epoch();
      assertThat(runEpoch).as("the new leader's run fenced the pointer").isGreaterThan(before);
      long leaderEpoch = Long.parseLong(epochs(metadata, pointer).split(" ")[1]);

      signal(old.pid(), "CONT");
      List<String> seen = Collections.synchronizedList(new ArrayList<>());
      await(old.name + " steps down", Duration.ofSeconds(30), () -> {
        seen.add(epochs(metadata, pointer));
        return "FOLLOWER".equals(old.role());
      });
      for (int i = 0; i < 20; i++) { // and for a while after
        seen.add(epochs(metadata, pointer));
        LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
      }
      assertThat(seen).as("pointer run epoch and status leader epoch after the old leader resumed")
          .allSatisfy(s -> {
            String[] parts = s.split(" ");
            assertThat(Long.parseLong(parts[0])).as("pointer epoch").isGreaterThanOrEqualTo(runEpoch);
            assertThat(Long.parseLong(parts[1])).as("status leader epoch").isGreaterThanOrEqualTo(leaderEpoch);
          });
      assertThat(Files.readString(old.log())).as("the resumed leader says why it stepped down")
          .contains("no longer leads the control plane");
    }
    await("the job finishes under " + next.name, Duration.ofSeconds(120), () -> {
      JsonNode job = next.get("/v1/projects/default/jobs/bids");
      return job != null && "FINISHED".equalsIgnoreCase(job.path("observedState").asText());
    });
    assertThat(ControlTests.committed(out)).as("committed output: no record committed twice or lost")
        .containsExactlyElementsOf(expected);
  }

  /**
   * Two replicas with external worker processes, which outlive a leader: after each of three leader
   * kills the new leader takes the running attempt over — the job's attempt never changes, nothing is
   * restored — and the committed output is exactly that of an uninterrupted run.
   */
  @Timeout(300)
  @Test
  void externalWorkersKeepTheAttemptRunningThroughLeaderKills() throws Exception {
    int partitions = 3;
    kafka.createTopic("re-clicks", partitions);
    kafka.createTopic("re-counts", partitions);
    Map<String, Long> expected = produceClicks("re-clicks", partitions, 20_000);
    twoReplicas("tributary-reattach", "reattach", List.of(), true);
    String controlPlanes = replicas.stream().map(r -> "127.0.0.1:" + r.workerPort)
        .collect(java.util.stream.Collectors.joining(","));
    Map<String, String> workerEnv = new HashMap<>(CloudStores.env());
    workerEnv.put("TRIBUTARY_S3_ENDPOINT", stores.s3Endpoint().toString());
    workerEnv.put("TRIBUTARY_S3_PATH_STYLE", "true");
    List<Process> workers = new ArrayList<>();
    for (String id : List.of("w1", "w2")) {
      workers.add(io.tributary.cluster.WorkerProcesses.start(controlPlanes, id, 4, tmp.resolve("cache").resolve(id),
          tmp.resolve("replicas").resolve("logs").resolve("workers").resolve(id + ".log"), Replica.CLUSTER_SECRET,
          workerEnv));
    }
    try {
      String spec = countsSpec("re-clicks", "re-counts", "reattach-it");
      HttpResponse<String> applied = awaitLeader().send("PUT", "/v1/projects/default/jobs/counts", applyBody(spec));
      assertThat(applied.statusCode()).as(applied.body()).isIn(200, 201);
      List<String> figures = new ArrayList<>();
      Random random = new Random();
      String attempt = null;
      for (int k = 0; k < 3; k++) {
        Replica lead = awaitLeader();
        awaitCheckpointAfter(lead, Instant.now().minusSeconds(1), "the job runs and checkpoints under " + lead.name);
        LockSupport.parkNanos(Duration.ofMillis(200 + random.nextInt(1500)).toNanos()); // a random moment
        String running = runningAttempt(lead);
        assertThat(attempt == null || running.equals(attempt)).as("the attempt %s went on after the last kill, now %s",
            attempt, running).isTrue();
        attempt = running;
        Instant killed = Instant.now();
        lead.kill();
        Replica survivor = replicas.stream().filter(r -> r != lead).findFirst().orElseThrow();
        awaitCheckpointAfter(survivor, killed, "a checkpoint completes under the new leader after kill " + (k + 1));
        figures.add(String.format("kill %d of %s: first checkpoint under the new leader after %d ms", k + 1, lead.name,
            Duration.between(killed, Instant.now()).toMillis()));
        List<String> since = eventsSince(survivor, "counts", killed);
        figures.addAll(since);
        assertThat(since).as("the new leader takes the running attempt over").anyMatch(e ->
            e.contains("took over its running attempt (" + running + ")"));
        assertThat(since).as("nothing restarts").noneMatch(e -> e.contains("restoring") || e.contains("run started"));
        lead.start();
        await(lead.name + " serves again", Duration.ofSeconds(90), () -> lead.role() != null);
      }
      figures.forEach(System.out::println);
      assertThat(workers).as("the worker processes never stopped").allMatch(Process::isAlive);
      Map<String, Long> committed = new TreeMap<>();
      await("every window result is committed", Duration.ofSeconds(180), () -> {
        committed.clear();
        committed.putAll(readCommitted("re-counts", partitions));
        return committed.size() >= expected.size();
      });
      assertThat(committed).as("committed window results (read_committed)").isEqualTo(expected);
    } finally {
      workers.forEach(Process::destroyForcibly);
    }
  }

  /** The attempt the job runs, as its latest start or take-over event names it: {@code epoch N}. */
  private static String runningAttempt(Replica r) {
    java.util.regex.Pattern epoch = java.util.regex.Pattern.compile("(run started|took over its running attempt) "
        + "\\((epoch \\d+)\\)");
    for (JsonNode e : r.get("/v1/projects/default/jobs/counts/events").path("items")) { // newest first
      java.util.regex.Matcher m = epoch.matcher(e.path("message").asText());
      if (m.find()) {
        return m.group(2);
      }
    }
    throw new AssertionError("no event of job counts names its attempt");
  }

  /**
   * Clicks per user and 1 s window, from Kafka topic {@code in} (400 a second) to topic {@code out},
   * exactly once, with forst state and a checkpoint every 500 ms.
   */
  private static String countsSpec(String in, String out, String transactionalIdPrefix) {
    return """
        name: counts
        parallelism: 2
        checkpoints: {interval: 500ms}
        state: {backend: forst}
        sources:
          clicks:
            type: kafka
            bootstrapServers: "%1$s"
            topic: %2$s
            startFrom: earliest
            maxRecordsPerSecond: 400
            eventTime: {field: ts}
        operators:
          - {id: per-user, input: clicks, keyBy: [user], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-user, type: kafka, bootstrapServers: "%1$s", topic: %3$s, keyFields: [user],
                delivery: exactly-once, transactionalIdPrefix: %4$s}
        """.formatted(kafka.bootstrapServers(), in, out, transactionalIdPrefix);
  }

  /** The job's events since {@code since}, oldest first, as {@code "  +<ms after> <kind> <message>"}. */
  private static List<String> eventsSince(Replica r, String job, Instant since) {
    JsonNode events = r.get("/v1/projects/default/jobs/" + job + "/events");
    List<String> lines = new ArrayList<>();
    if (events != null) {
      for (JsonNode e : events.path("items")) {
        Instant at = Instant.parse(e.path("at").asText());
        if (!at.isBefore(since)) {
          lines.add(0, String.format("  +%5d ms %s %s", Duration.between(since, at).toMillis(), e.path("kind").asText(),
              e.path("message").asText()));
        }
      }
    }
    return lines;
  }

  /** The body of a {@code PUT .../jobs/{name}} of the YAML {@code spec}. */
  private static String applyBody(String spec) throws java.io.IOException {
    JsonNode tree = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(spec);
    com.fasterxml.jackson.databind.node.ObjectNode body = JSON.createObjectNode();
    body.set("spec", tree);
    return body.toString();
  }

  /** The pointer's run epoch and the status's leader epoch, as {@code "<run> <leader>"}. */
  private static String epochs(MetadataStore metadata, String pointer) {
    try {
      return FencedWrites.read(metadata, pointer).orElseThrow().epoch() + " "
          + JSON.readTree(metadata.get("projects/default/status/bids").orElseThrow().value()).path("controlEpoch").asLong();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private Replica awaitLeader() {
    Replica[] found = new Replica[1];
    await("a replica leads", Duration.ofSeconds(60), () -> {
      found[0] = leader().orElse(null);
      return found[0] != null;
    });
    return found[0];
  }

  /** Waits until {@code r} reports the job's latest checkpoint completed after {@code after}. */
  private void awaitCheckpointAfter(Replica r, Instant after, String what) {
    try {
      checkpointAfter(r, after, what);
    } catch (AssertionError e) {
      StringBuilder why = new StringBuilder(e.getMessage());
      for (String job : List.of("counts", "bids")) {
        JsonNode events = r.get("/v1/projects/default/jobs/" + job + "/events");
        if (events != null) {
          why.append("\nevents of ").append(job).append(": ").append(events);
        }
      }
      for (Replica each : replicas) {
        if (each.alive()) {
          try {
            Process dump = new ProcessBuilder("jcmd", String.valueOf(each.pid()), "Thread.print")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("replicas").resolve(each.name + "-threads.log")
                    .toFile()).start();
            dump.waitFor();
          } catch (Exception ignored) {
            // a post-mortem aid only
          }
        }
      }
      throw new AssertionError(why.toString(), e);
    }
  }

  private static void checkpointAfter(Replica r, Instant after, String what) {
    await(what, Duration.ofSeconds(90), () -> {
      JsonNode jobs = r.get("/v1/projects/default/jobs");
      if (jobs == null) {
        return false;
      }
      for (JsonNode job : jobs.path("items")) {
        if ("FAILED".equalsIgnoreCase(job.path("observedState").asText())) {
          throw new AssertionError("job failed: " + job.path("failure"));
        }
        String at = job.path("lastCheckpoint").path("completedAt").asText(null);
        if (at != null && Instant.parse(at).isAfter(after) && "RUNNING".equalsIgnoreCase(job.path("observedState").asText())) {
          return true;
        }
      }
      return false;
    });
  }

  /**
   * 20 API requests a second to the replicas that are not being killed: reads of the job, its
   * events and checkpoints, and once a second an apply of the unchanged spec (which only the leader
   * may act on: during a takeover it is refused with 503 and Retry-After).
   */
  private final class Load {
    final java.util.Set<String> dead = ConcurrentHashMap.newKeySet();
    final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    final List<String> failedReads = Collections.synchronizedList(new ArrayList<>());
    final List<String> failedWrites = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger refusedWrites = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final String applyBody;
    private final Thread thread;

    Load(String applyBody) {
      this.applyBody = applyBody;
      this.thread = new Thread(this::run, "api-load");
    }

    void start() {
      thread.start();
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join();
    }

    private void run() {
      String[] reads = {"/v1/projects/default/jobs/counts", "/v1/projects/default/jobs/counts/events",
          "/v1/projects/default/jobs/counts/checkpoints", "/v1/projects/default/jobs"};
      long n = 0;
      long next = System.nanoTime();
      while (running.get()) {
        List<Replica> live = replicas.stream().filter(r -> !dead.contains(r.name) && r.alive()).toList();
        if (!live.isEmpty()) {
          Replica r = live.get((int) (n % live.size()));
          boolean write = n % 20 == 19;
          String path = write ? "/v1/projects/default/jobs/counts" : reads[(int) (n % reads.length)];
          try {
            HttpResponse<String> resp = r.send(write ? "PUT" : "GET", path, write ? applyBody : null);
            (write ? writes : this.reads).incrementAndGet();
            if (write && resp.statusCode() == 503 && resp.headers().firstValue("Retry-After").isPresent()) {
              refusedWrites.incrementAndGet();
            } else if (resp.statusCode() != 200) {
              fail(write, r.name + " " + path + ": " + resp.statusCode() + " " + resp.body());
            }
          } catch (java.io.IOException e) {
            if (!dead.contains(r.name)) {
              fail(write, r.name + " " + path + ": " + e);
            }
          } catch (InterruptedException e) {
            return;
          }
          n++;
        }
        next += Duration.ofMillis(50).toNanos();
        LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
      }
    }

    private void fail(boolean write, String what) {
      failures.add(what);
      (write ? failedWrites : failedReads).add(what);
    }

    String report() {
      return "API load: " + reads.get() + " reads (" + failedReads.size() + " failed), " + writes.get()
          + " applies (" + refusedWrites.get() + " refused with 503 during takeovers, " + failedWrites.size()
          + " failed otherwise)";
    }
  }

  static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout + ": " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
  }

  private static void signal(long pid, String signal) throws Exception {
    Process p = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start();
    assertThat(p.waitFor()).as("kill -" + signal).isZero();
  }

  /** {@code n} clicks of 40 users, 10 per millisecond of event time, then an end marker per partition. */
  private static Map<String, Long> produceClicks(String topic, int partitions, int n) {
    Map<String, Long> expected = new TreeMap<>();
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < n; i++) {
        String user = "u" + (i % 40);
        long ts = i / 10;
        producer.send(new ProducerRecord<>(topic, i % partitions, null, "{\"user\":\"" + user + "\",\"ts\":" + ts + "}"));
        expected.merge(user + "@" + (ts / 1000 * 1000), 1L, Long::sum);
      }
      for (int part = 0; part < partitions; part++) {
        producer.send(new ProducerRecord<>(topic, part, null, "{\"user\":\"end\",\"ts\":" + (n / 10 + 3_600_000) + "}"));
      }
    }
    return expected;
  }

  private static Map<String, Long> readCommitted(String topic, int partitions) {
    List<TopicPartition> tps = IntStream.range(0, partitions).mapToObj(i -> new TopicPartition(topic, i)).toList();
    Map<String, Long> out = new HashMap<>();
    List<String> duplicates = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new StringDeserializer())) {
      c.assign(tps);
      c.seekToBeginning(tps);
      Map<TopicPartition, Long> end = c.endOffsets(tps);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(100)).forEach(r -> {
          try {
            JsonNode m = JSON.readTree(r.value());
            String key = m.path("user").asText() + "@" + m.path("window_start").asLong();
            if (out.put(key, m.path("n").asLong()) != null) {
              duplicates.add(key);
            }
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
      }
    }
    assertThat(duplicates).as("results committed more than once").isEmpty();
    return out;
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (Files.exists(dir)) {
      try (var s = Files.walk(dir)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
