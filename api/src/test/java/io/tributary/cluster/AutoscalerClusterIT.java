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
import io.tributary.scheduler.lifecycle.JobView;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.IntStream;
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
 * The autoscaler on worker processes and the real Kafka broker, per stage: a job whose keyed stage
 * has a fixed cost per record (a blackhole sink taking at most 400 records a second per subtask,
 * chained beside an exactly-once Kafka sink) is fed at 100 records a second, then at 700 — more
 * than one subtask takes, so the topic's backlog grows — then at 50. The autoscaler scales the
 * keyed stage up to 2 and back down to 1 while the source's stage, almost idle, stays at 1; every
 * record written reaches the Kafka sink's committed output exactly once through both rescales.
 */
class AutoscalerClusterIT {
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

  @Timeout(300)
  @Test
  void theLoadedStageScalesUpAndBackDownOnWorkerProcessesWithExactOutput() throws Exception {
    kafka.createTopic("clicks", PARTITIONS);
    kafka.createTopic("clicks-out", PARTITIONS);
    String spec = """
        name: clicks
        parallelism: {initial: 1, min: 1, max: 2}
        checkpoints: {interval: 500ms}
        state: {backend: heap}
        autoscaler: {metricsWindow: 3s, stabilization: 3s, scaleDownDelay: 5s, catchUpDuration: 30s}
        sources:
          clicks: {type: kafka, bootstrapServers: "%1$s", topic: clicks, startFrom: earliest}
        operators:
          - {id: by-user, input: clicks, keyBy: [user]}
        sinks:
          out: {input: by-user, type: kafka, bootstrapServers: "%1$s", topic: clicks-out, keyFields: [user],
                delivery: exactly-once, transactionalIdPrefix: autoscaler-cluster-it}
          cost: {input: by-user, type: blackhole, maxRecordsPerSecondPerSubtask: 400}
        """.formatted(kafka.bootstrapServers());
    ControlPlaneServices services = EmbeddedServices.open(tmp.resolve("data"), ConnectorFactory.standard(),
        ConnectorPolicy.unrestricted(), new WorkersOption(WorkersOption.Kind.LOCAL, 2, 3, "127.0.0.1", 0,
            Duration.ofSeconds(5)), new ClusterSecret("autoscaler-cluster-it-secret", false));
    try (JobManager jobs = JobManager.open(ControlTests.settings().withActionTimeout(Duration.ofSeconds(60)),
        services);
        Feed feed = new Feed()) {
      feed.rate = 100;
      jobs.apply(P, "clicks", spec, null);
      ControlTests.awaitState(jobs, P, "clicks", ObservedState.RUNNING);

      feed.rate = 700;
      await(jobs, "the keyed stage scales up to 2", () -> runsAt(jobs, "by-user", 2));
      assertThat(stageAt(jobs, "clicks")).as("the source's stage, almost idle, stays at 1").isEqualTo(1);
      assertThat(jobs.get(P, "clicks").tasks()).extracting(t -> t.stage()).containsExactlyInAnyOrder(
          "clicks", "by-user -> out -> cost", "by-user -> out -> cost");
      assertThat(jobs.get(P, "clicks").tasks()).extracting(t -> t.worker()).as("tasks on worker processes")
          .allMatch(w -> w.startsWith("worker-"));

      feed.rate = 50;
      await(jobs, "the keyed stage scales back down to 1", () -> runsAt(jobs, "by-user", 1));

      int written = feed.stop();
      Set<Integer> committed = new HashSet<>();
      List<Integer> duplicates = new ArrayList<>();
      await(jobs, "every record is committed", () -> {
        committed.clear();
        duplicates.clear();
        readCommitted(committed, duplicates);
        return committed.size() >= written;
      });
      List<String> decisions = jobs.events(P, "clicks").stream().filter(e -> e.type() == JobEvent.Type.AUTOSCALED)
          .map(e -> e.time() + " " + e.message()).toList();
      System.out.println("AutoscalerClusterIT: " + written + " records; decisions:\n  " + String.join("\n  ",
          decisions));
      assertThat(duplicates).as("records committed twice").isEmpty();
      assertThat(committed).as("committed output (read_committed): every record written, once")
          .isEqualTo(new HashSet<>(IntStream.range(0, written).boxed().toList()));
      assertThat(decisions).first().asString().contains("autoscaler: by-user 1 → 2 (by-user -> out -> cost: busy");
      assertThat(decisions).anySatisfy(d -> assertThat(d).contains("autoscaler: by-user 2 → 1 ("));
    }
  }

  private static void await(JobManager jobs, String what, java.util.function.BooleanSupplier done) {
    try {
      ControlTests.await(what, Duration.ofSeconds(120), () -> {
        JobView v = jobs.get(P, "clicks");
        if (v.observed() == ObservedState.FAILED) {
          throw new AssertionError("the job failed: " + v.failure());
        }
        return v.observed() == ObservedState.RUNNING && done.getAsBoolean();
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; events:\n" + ControlTests.timeline(jobs.events(P, "clicks"))
          + "\nmetrics:\n" + jobs.prometheus().lines().filter(l -> l.contains("recommended") || l.contains("busy"))
              .collect(java.util.stream.Collectors.joining("\n")), e);
    }
  }

  /**
   * Whether the stage of {@code head} is to run at {@code n} and its tasks run: the job's record
   * says the new parallelism as soon as a rescale is decided, while the run before it still runs.
   */
  private static boolean runsAt(JobManager jobs, String head, int n) {
    return stageAt(jobs, head) == n
        && jobs.get(P, "clicks").tasks().stream().filter(t -> t.stage().startsWith(head + " ")).count() == n;
  }

  /** The parallelism of the stage that begins with operator {@code head}. */
  private static int stageAt(JobManager jobs, String head) {
    JobView view = jobs.get(P, "clicks");
    return view.stageParallelism().getOrDefault(head, view.parallelism());
  }

  /** Adds the id of every record committed to the output topic; an id seen twice goes to {@code duplicates}. */
  private static void readCommitted(Set<Integer> ids, List<Integer> duplicates) {
    for (String value : WindowCounts.committedValues(kafka, "clicks-out", PARTITIONS)) {
      int id = Integer.parseInt(value.replaceAll(".*\"id\":(\\d+).*", "$1"));
      if (!ids.add(id)) {
        duplicates.add(id);
      }
    }
  }

  /** Writes records {@code {id, user}} (ids from 0, 50 users) at {@link #rate} a second until stopped. */
  private static final class Feed implements AutoCloseable {
    volatile int rate;
    private volatile boolean stopping;
    private int next;
    private final Thread thread = new Thread(this::run, "autoscaler-cluster-it-feed");

    Feed() {
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
          new StringSerializer())) {
        long tick = System.nanoTime();
        while (!stopping) {
          // a tenth of a second's records, then wait for the next tenth: a steady rate that follows changes
          int n = Math.max(1, rate / 10);
          for (int i = 0; i < n; i++) {
            int id = next++;
            producer.send(new ProducerRecord<>("clicks", id % PARTITIONS, null,
                "{\"id\":" + id + ",\"user\":\"u" + (id % 50) + "\"}"));
          }
          tick += 100_000_000L;
          long wait = tick - System.nanoTime();
          if (wait > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(wait);
          }
        }
        producer.flush();
      }
    }

    /** Stops writing; returns how many records were written. */
    int stop() throws InterruptedException {
      stopping = true;
      thread.join();
      return next;
    }

    @Override
    public void close() throws InterruptedException {
      stop();
    }
  }
}
