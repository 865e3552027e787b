package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.boot.ClusterSecret;
import io.tributary.boot.ControlTests;
import io.tributary.boot.EmbeddedServices;
import io.tributary.boot.WorkersOption;
import io.tributary.connectors.ConnectorPolicy;
import io.tributary.connectors.kafka.KafkaBroker;
import io.tributary.scheduler.lifecycle.ControlPlaneServices;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.worker.remote.RemoteWorkerPool;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
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
 * Scale to zero on worker processes and the real Kafka broker: a keyed window job whose topic has
 * no new records for its {@code idleAfter} takes a checkpoint, gives back every slot and is IDLE;
 * records written to the topic then resume it from that checkpoint, with the window state it had
 * (records read before it went idle are counted in windows that close after it resumed), and its
 * exactly-once output is exactly that of a run that never stopped.
 */
class ScaleToZeroIT {
  private static final String P = "default";
  private static final int PARTITIONS = 2;
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

  @Timeout(240)
  @Test
  void anIdleJobHoldsNoWorkerAndResumesWithItsStateWhenInputArrives() throws Exception {
    kafka.createTopic("orders", PARTITIONS);
    kafka.createTopic("order-counts", PARTITIONS);
    String spec = """
        name: orders
        parallelism: 2
        checkpoints: {interval: 300ms}
        state: {backend: forst}
        idleAfter: 3s
        sources:
          orders:
            type: kafka
            bootstrapServers: "%1$s"
            topic: orders
            startFrom: earliest
            eventTime: {field: ts}
        operators:
          - {id: per-user, input: orders, keyBy: [user], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-user, type: kafka, bootstrapServers: "%1$s", topic: order-counts, keyFields: [user],
                delivery: exactly-once, transactionalIdPrefix: idle-it}
        """.formatted(kafka.bootstrapServers());
    ControlPlaneServices services = EmbeddedServices.open(tmp.resolve("data"), ConnectorFactory.standard(),
        ConnectorPolicy.unrestricted(), new WorkersOption(WorkersOption.Kind.LOCAL, 2, 2, "127.0.0.1", 0,
            Duration.ofSeconds(5)), new ClusterSecret("scale-to-zero-it-cluster-secret", false));
    RemoteWorkerPool pool = (RemoteWorkerPool) services.pool();
    try (JobManager jobs = JobManager.open(ControlTests.settings().withActionTimeout(Duration.ofSeconds(60)),
        services)) {
      // first batch: event time 0..10 s, then a "tick" per partition at 20 s that closes those windows
      // and opens the tick's own window, which stays open while the job is idle
      Map<String, Long> expected = new TreeMap<>();
      produce(0, 2_000, 20_000, expected);
      jobs.apply(P, "orders", spec, null);

      awaitIdle(jobs);
      var idle = jobs.get(P, "orders");
      assertThat(pool.workers()).as("worker processes after the job went idle").isNotEmpty()
          .allSatisfy(w -> assertThat(w.freeSlots()).as(w.id() + " holds no slot").isEqualTo(w.slots()));
      assertThat(idle.tasks()).as("tasks of an idle job").isEmpty();
      JobEvent wentIdle = lastMoveTo(jobs, ObservedState.IDLE);
      assertThat(wentIdle.message()).contains("its sources read nothing for").contains("new input");
      Map<String, Long> closedBeforeIdle = new TreeMap<>(expected);
      closedBeforeIdle.keySet().removeIf(k -> k.startsWith("tick@"));
      assertThat(WindowCounts.readCommitted(kafka, "order-counts", PARTITIONS))
          .as("committed before the job went idle: every window the first batch closed")
          .isEqualTo(closedBeforeIdle);

      // second batch: event time 20..30 s, and ticks at 40 s: the first ticks' window closes now
      long written = System.nanoTime();
      produce(20_000, 2_000, 40_000, expected);
      ControlTests.await("the idle job resumes on new input", Duration.ofSeconds(30),
          () -> jobs.get(P, "orders").observed() == ObservedState.RUNNING);
      long resumedMillis = Duration.ofNanos(System.nanoTime() - written).toMillis();
      Map<String, Long> all = new TreeMap<>(expected);
      all.keySet().removeIf(k -> k.equals("tick@40000"));
      Map<String, Long> committed = new TreeMap<>();
      ControlTests.await("every closed window is committed", Duration.ofSeconds(60), () -> {
        committed.clear();
        committed.putAll(WindowCounts.readCommitted(kafka, "order-counts", PARTITIONS));
        return committed.size() >= all.size();
      });
      long outputMillis = Duration.ofNanos(System.nanoTime() - written).toMillis();
      System.out.println("ScaleToZeroIT: new records → RUNNING in " + resumedMillis + " ms, → all output committed in "
          + outputMillis + " ms\n" + ControlTests.timeline(jobs.events(P, "orders")));
      assertThat(committed).as("committed window results (read_committed), the ticks' window counted across the "
          + "idle period").isEqualTo(all);
      assertThat(committed).containsEntry("tick@20000", (long) PARTITIONS);
      assertThat(lastMoveTo(jobs, ObservedState.DEPLOYING).message()).contains("new input");

      // and it goes idle again once the second batch is read
      awaitIdle(jobs);
    }
  }

  private static void awaitIdle(JobManager jobs) {
    try {
      ControlTests.await("the job goes idle", Duration.ofSeconds(60), () -> {
        var view = jobs.get(P, "orders");
        if (view.observed() == ObservedState.FAILED) {
          throw new AssertionError("the job failed: " + view.failure());
        }
        return view.observed() == ObservedState.IDLE;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; events:\n" + ControlTests.timeline(jobs.events(P, "orders")), e);
    }
  }

  private static JobEvent lastMoveTo(JobManager jobs, ObservedState to) {
    JobEvent last = null;
    for (JobEvent e : jobs.events(P, "orders")) {
      if (e.to() == to) {
        last = e;
      }
    }
    assertThat(last).as("a move to " + to).isNotNull();
    return last;
  }

  /**
   * Writes {@code n} orders of 20 users from event time {@code from}, 1 per millisecond, spread over
   * the partitions, then a tick on every partition at {@code tick}; adds the count per
   * {@code user@window_start} to {@code expected}.
   */
  private static void produce(long from, int n, long tick, Map<String, Long> expected) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < n; i++) {
        String user = "u" + (i % 20);
        long ts = from + i * 5L;
        producer.send(new ProducerRecord<>("orders", i % PARTITIONS, null,
            "{\"user\":\"" + user + "\",\"ts\":" + ts + "}"));
        expected.merge(user + "@" + (ts / 1000 * 1000), 1L, Long::sum);
      }
      for (int part = 0; part < PARTITIONS; part++) {
        producer.send(new ProducerRecord<>("orders", part, null, "{\"user\":\"tick\",\"ts\":" + tick + "}"));
        expected.merge("tick@" + tick, 1L, Long::sum);
      }
    }
  }
}
