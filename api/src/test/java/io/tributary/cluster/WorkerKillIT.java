package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.ClusterSecret;
import io.tributary.boot.ControlTests;
import io.tributary.boot.EmbeddedServices;
import io.tributary.boot.WorkersOption;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.connectors.kafka.KafkaBroker;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.scheduler.lifecycle.TaskPlacement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once output (contract C10) through worker processes killed with {@code kill -9}: a control
 * plane with three local worker processes runs a keyed window job; five times, at a random moment, a
 * random worker process running its tasks is killed; the supervisor replaces it and the job restarts from its latest
 * checkpoint on the remaining capacity. The committed output is exactly that of an uninterrupted run:
 * no gap, no duplicate.
 */
class WorkerKillIT {
  private static final String P = "default";
  private static final int KILLS = 5;
  private static final Pattern EPOCH = Pattern.compile("run started \\(epoch (\\d+)\\)");
  private static KafkaBroker kafka;

  @TempDir
  Path tmp;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = KafkaBroker.start();
  }

  @AfterAll
  static void stopKafka() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private RemoteWorkerPool pool;

  private JobManager controlPlane(Path data) {
    ControlPlaneServices services = EmbeddedServices.open(data, ConnectorFactory.standard(), ConnectorPolicy.unrestricted(),
        new WorkersOption(WorkersOption.Kind.LOCAL, 3, 2, "127.0.0.1", 0, Duration.ofSeconds(5)),
        new ClusterSecret("worker-kill-it-cluster-secret", false));
    pool = (RemoteWorkerPool) services.pool();
    return JobManager.open(ControlTests.settings().withActionTimeout(Duration.ofSeconds(60)), services);
  }

  @Timeout(240)
  @Test
  void kafkaToKafkaExactlyOnceThroughFiveKills() throws Exception {
    int partitions = 3;
    kafka.createTopic("clicks", partitions);
    kafka.createTopic("counts", partitions);
    Map<String, Long> expected = produceClicks("clicks", partitions, 24_000);
    String spec = """
        name: counts
        parallelism: 2
        checkpoints: {interval: 300ms}
        state: {backend: forst}
        sources:
          clicks:
            type: kafka
            bootstrapServers: "%1$s"
            topic: clicks
            startFrom: earliest
            maxRecordsPerSecond: 1200
            eventTime: {field: ts}
        operators:
          - {id: per-user, input: clicks, keyBy: [user], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-user, type: kafka, bootstrapServers: "%1$s", topic: counts, keyFields: [user],
                delivery: exactly-once, transactionalIdPrefix: kill-it}
        """.formatted(kafka.bootstrapServers());
    try (JobManager jobs = controlPlane(tmp.resolve("data"))) {
      jobs.apply(P, "counts", spec, null);
      killFiveTimes(jobs, "counts");
      Map<String, Long> committed = new TreeMap<>();
      WorkerProcesses.await("every window result is committed", Duration.ofSeconds(120), () -> {
        committed.clear();
        committed.putAll(WindowCounts.readCommitted(kafka, "counts", partitions));
        return committed.size() >= expected.size();
      });
      assertThat(committed).as("committed window results (read_committed)").isEqualTo(expected);
    }
  }

  /**
   * A sink subtask's transactions are committed by the worker that runs it, whichever worker runs the
   * other subtask: its writer learns that they are committed and reuses their producers, so each
   * subtask keeps a few transactional ids however many checkpoints commit (a transaction committed
   * behind the writer's back would keep its producer parked, and every checkpoint would open one
   * more).
   */
  @Timeout(180)
  @Test
  void eachSinkSubtaskCommitsWhereItRunsAndReusesItsProducers() throws Exception {
    kafka.createTopic("views", 2);
    kafka.createTopic("view-counts", 2);
    produceClicks("views", 2, 60_000);
    String spec = """
        name: views
        parallelism: 2
        checkpoints: {interval: 200ms}
        state: {backend: heap}
        sources:
          views:
            type: kafka
            bootstrapServers: "%1$s"
            topic: views
            startFrom: earliest
            maxRecordsPerSecond: 2000
            eventTime: {field: ts}
        operators:
          - {id: per-user, input: views, keyBy: [user], window: {type: tumbling, size: 100ms}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-user, type: kafka, bootstrapServers: "%1$s", topic: view-counts, keyFields: [user],
                delivery: exactly-once, transactionalIdPrefix: reuse-it}
        """.formatted(kafka.bootstrapServers());
    try (JobManager jobs = controlPlane(tmp.resolve("data"))) {
      jobs.apply(P, "views", spec, null);
      WorkerProcesses.await("views completes 20 checkpoints", Duration.ofSeconds(90), () -> {
        var view = jobs.get(P, "views");
        if (view.observed() == ObservedState.FAILED) {
          throw new AssertionError("the job failed: " + view.failure());
        }
        return view.lastCheckpoint() != null && view.lastCheckpoint().id() >= 20;
      });
      int sinkStage = jobs.get(P, "views").tasks().stream().mapToInt(TaskPlacement::stageId).max().orElseThrow();
      assertThat(jobs.get(P, "views").tasks().stream().filter(t -> t.stageId() == sinkStage)
          .map(TaskPlacement::worker).distinct()).as("the sink's subtasks run on two worker processes").hasSize(2);
      Map<String, Long> idsPerSubtask = new TreeMap<>();
      try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
          Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
        for (var t : admin.listTransactions().all().get()) {
          Matcher m = Pattern.compile("reuse-it-(\\d+)-\\d+-\\d+").matcher(t.transactionalId());
          if (m.matches()) {
            idsPerSubtask.merge("subtask " + m.group(1), 1L, Long::sum);
          }
        }
      }
      assertThat(idsPerSubtask).as("transactional ids per sink subtask after 20 checkpoints").hasSize(2)
          .allSatisfy((subtask, ids) -> assertThat(ids).as(subtask).isLessThanOrEqualTo(3));
    }
  }

  @Timeout(240)
  @Test
  void fileSinkExactlyOnceThroughFiveKills() throws Exception {
    Path out = tmp.resolve("out");
    String spec = ControlTests.bidsPerAuction(out, 1500, "300ms", "").replace("events: 20000", "events: 40000");
    List<String> expected = ControlTests.reference(spec, out);
    deleteTree(out);
    try (JobManager jobs = controlPlane(tmp.resolve("data"))) {
      jobs.apply(P, "bids", spec, null);
      killFiveTimes(jobs, "bids");
      ControlTests.awaitState(jobs, P, "bids", ObservedState.FINISHED);
      List<String> committed = ControlTests.committed(out);
      assertThat(committed).as("committed output").containsExactlyElementsOf(expected);
      assertThat(ControlTests.hidden(out)).as("nothing left in progress").isEmpty();
    }
  }

  /**
   * Five times: waits until the job runs and has completed a checkpoint since it started, then for a
   * random moment, then kills a random worker process, and waits until the job runs again.
   */
  private void killFiveTimes(JobManager jobs, String name) {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    System.out.println("WorkerKillIT seed " + seed);
    for (int k = 0; k < KILLS; k++) {
      int epoch = awaitRunningWithACheckpoint(jobs, name);
      LockSupport.parkNanos(Duration.ofMillis(200 + random.nextInt(1500)).toNanos()); // a random moment
      // a random worker running tasks of the job (killing an idle one restarts nothing)
      List<RemoteWorkerPool.WorkerInfo> workers = pool.workers().stream().filter(w -> w.freeSlots() < w.slots())
          .toList();
      assertThat(workers).as("the local pool's worker processes running the job").isNotEmpty();
      RemoteWorkerPool.WorkerInfo victim = workers.get(random.nextInt(workers.size()));
      System.out.println("kill -9 " + victim.id() + " (pid " + victim.pid() + ") in epoch " + epoch);
      ProcessHandle.of(victim.pid()).orElseThrow().destroyForcibly();
      int after = epoch;
      try {
        WorkerProcesses.await("the job restarts after kill " + (k + 1), Duration.ofSeconds(60), () ->
            latestEpoch(jobs, name) > after || jobs.get(P, name).observed() == ObservedState.FINISHED);
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "; events:\n" + ControlTests.timeline(jobs.events(P, name)), e);
      }
    }
    System.out.println(ControlTests.timeline(jobs.events(P, name)));
  }

  /** Waits until the job RUNs and completed a checkpoint in its current epoch; returns the epoch. */
  private static int awaitRunningWithACheckpoint(JobManager jobs, String name) {
    int[] epoch = {-1};
    WorkerProcesses.await(name + " runs and checkpoints", Duration.ofSeconds(60), () -> {
      var view = jobs.get(P, name);
      if (view.observed() == ObservedState.FAILED) {
        throw new AssertionError("the job failed: " + view.failure() + "\n" + ControlTests.timeline(jobs.events(P, name)));
      }
      epoch[0] = latestEpoch(jobs, name);
      List<JobEvent> events = jobs.events(P, name);
      boolean checkpointed = view.lastCheckpoint() != null && view.lastCheckpoint().completedAt() != null
          && startedAt(events) != null && view.lastCheckpoint().completedAt().isAfter(startedAt(events));
      return view.observed() == ObservedState.RUNNING && checkpointed;
    });
    return epoch[0];
  }

  private static java.time.Instant startedAt(List<JobEvent> events) {
    java.time.Instant at = null;
    for (JobEvent e : events) {
      if (EPOCH.matcher(e.message()).find()) {
        at = e.time();
      }
    }
    return at;
  }

  private static int latestEpoch(JobManager jobs, String name) {
    int epoch = -1;
    for (JobEvent e : jobs.events(P, name)) {
      Matcher m = EPOCH.matcher(e.message());
      if (m.find()) {
        epoch = Math.max(epoch, Integer.parseInt(m.group(1)));
      }
    }
    return epoch;
  }

  /**
   * Writes {@code n} clicks of 40 users, 10 per millisecond of event time, spread over the partitions in
   * event-time order, then one record per partition an hour later so every window closes.
   *
   * @return the count per {@code user@window_start} the job must commit
   */
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

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (java.nio.file.Files.exists(dir)) {
      try (var s = java.nio.file.Files.walk(dir)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
