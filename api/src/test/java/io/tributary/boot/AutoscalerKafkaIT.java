package io.tributary.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.cluster.WindowCounts;
import io.tributary.connect.ForwardingSplitReader;
import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.kafka.KafkaBroker;
import io.tributary.scheduler.lifecycle.JobEvent;
import io.tributary.scheduler.lifecycle.JobManager;
import io.tributary.scheduler.lifecycle.ObservedState;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
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
 * The autoscaler on a Kafka-fed keyed window with an exactly-once Kafka sink: fed at a low rate,
 * then at a rate one source subtask cannot read (its backlog on the topic grows), then low again,
 * the job is scaled up and back down, and its committed output is exactly that of a run without
 * rescales.
 *
 * <p>Every source subtask reads at most about {@link #RECORDS_PER_SECOND_PER_SUBTASK} (its split
 * readers wait a millisecond per record, which counts as busy time, as slow parsing would), so the
 * capacity grows with the parallelism whatever the machine's speed. That wrapper lives in this JVM,
 * so the job runs on the in-process pool.
 */
class AutoscalerKafkaIT {
  private static final int PARTITIONS = 4;
  private static final int RECORDS_PER_SECOND_PER_SUBTASK = 1_000;
  private static final String P = "default";
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

  @Test
  @Timeout(300)
  void aBacklogScalesTheJobUpAndALullScalesItBackDownWithExactOutput() throws Exception {
    kafka.createTopic("clicks", PARTITIONS);
    kafka.createTopic("click-counts", PARTITIONS);
    String spec = """
        name: clicks
        parallelism: {initial: 1, min: 1, max: 2}
        checkpoints: {interval: 500ms}
        state: {backend: heap}
        autoscaler: {metricsWindow: 3s, stabilization: 3s, scaleDownDelay: 5s, catchUpDuration: 30s}
        sources:
          clicks:
            type: kafka
            bootstrapServers: "%1$s"
            topic: clicks
            startFrom: earliest
            eventTime: {field: ts}
        operators:
          - {id: per-user, input: clicks, keyBy: [user], window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-user, type: kafka, bootstrapServers: "%1$s", topic: click-counts, keyFields: [user],
                delivery: exactly-once, transactionalIdPrefix: autoscale-it}
        """.formatted(kafka.bootstrapServers());
    ConnectorFactory slow = ConnectorFactory.standard().withSourceReaders(AutoscalerKafkaIT::aMillisecondPerRecord);
    // what the workers (in this process) say when a task goes on with state kept open across a rescale
    List<String> keptOpen = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Logger parking = java.util.logging.Logger.getLogger(
        io.tributary.worker.state.StateParking.class.getName());
    java.util.logging.Handler told = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        keptOpen.add(java.text.MessageFormat.format(r.getMessage(), r.getParameters()));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    parking.addHandler(told);
    Map<String, Long> expected = new TreeMap<>();
    try (JobManager jobs = EmbeddedServices.controlPlane(tmp.resolve("data"), slow, ControlTests.settings()
        .withActionTimeout(Duration.ofSeconds(60)));
        Feed feed = new Feed(expected)) {
      feed.rate = 50;
      jobs.apply(P, "clicks", spec, null);
      ControlTests.awaitState(jobs, P, "clicks", ObservedState.RUNNING);

      feed.rate = 1_500; // more than one subtask reads: the backlog grows
      ControlTests.await("the autoscaler scales the source's stage up to 2", Duration.ofSeconds(120), () ->
          failedOr(jobs) && stageAt(jobs, "clicks") == 2 && jobs.get(P, "clicks").observed() == ObservedState.RUNNING
              && sourceTasks(jobs) == 2); // the record says 2 as soon as it is decided, the tasks once they run
      assertThat(stageAt(jobs, "per-user")).as("the window's stage, almost idle, stays at its minimum").isEqualTo(1);
      assertThat(jobs.get(P, "clicks").tasks()).extracting(t -> t.stage())
          .containsExactlyInAnyOrder("clicks", "clicks", "per-user -> out");

      feed.rate = 20;
      try {
        ControlTests.await("the autoscaler scales the source's stage back down to 1", Duration.ofSeconds(120),
            () -> failedOr(jobs) && stageAt(jobs, "clicks") == 1
                && jobs.get(P, "clicks").observed() == ObservedState.RUNNING && sourceTasks(jobs) == 1);
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "; events:\n" + ControlTests.timeline(jobs.events(P, "clicks"))
            + "\nmetrics:\n" + jobs.prometheus().lines().filter(l -> l.contains("recommended")
                || l.contains("busy") || l.contains("records_in")).collect(java.util.stream.Collectors.joining("\n")), e);
      }

      feed.close(); // and an hour later on every partition, so that every window closes
      Map<String, Long> committed = new TreeMap<>();
      ControlTests.await("every window result is committed", Duration.ofSeconds(120), () -> {
        committed.clear();
        committed.putAll(WindowCounts.readCommitted(kafka, "click-counts", PARTITIONS));
        return committed.size() >= expected.size();
      });
      List<JobEvent> decisions = jobs.events(P, "clicks").stream()
          .filter(e -> e.type() == JobEvent.Type.AUTOSCALED).toList();
      System.out.println("AutoscalerKafkaIT: " + feed.written + " records; decisions:");
      decisions.forEach(d -> System.out.println("  " + d.time() + " " + d.message()));
      assertThat(committed).as("committed window results through the rescales (read_committed)").isEqualTo(expected);
      assertThat(decisions.get(0).message()).startsWith("autoscaler: clicks 1 → 2 (clicks: ")
          .as("the source's target counts its backlog on the topic").containsPattern("target [\\d.]+k?/s");
      assertThat(decisions).anySatisfy(d -> assertThat(d.message()).startsWith("autoscaler: clicks 2 → 1 ("));
      assertThat(keptOpen).as("the window's stage, not rescaled, kept its state open through both rescales")
          .filteredOn(m -> m.startsWith("default--clicks: per-user of key groups [0, 128) goes on with the state of "
              + "checkpoint ")).hasSize(2);
    } finally {
      parking.removeHandler(told);
    }
  }

  /** The tasks of the source's stage that run now. */
  private static long sourceTasks(JobManager jobs) {
    return jobs.get(P, "clicks").tasks().stream().filter(t -> t.stage().equals("clicks")).count();
  }

  /** The parallelism the stage that begins with operator {@code head} runs at (or will). */
  private static int stageAt(JobManager jobs, String head) {
    var view = jobs.get(P, "clicks");
    return view.stageParallelism().getOrDefault(head, view.parallelism());
  }

  private static boolean failedOr(JobManager jobs) {
    var view = jobs.get(P, "clicks");
    if (view.observed() == ObservedState.FAILED) {
      throw new AssertionError("the job failed: " + view.failure() + "\n" + ControlTests.timeline(
          jobs.events(P, "clicks")));
    }
    return true;
  }

  /** A reader that hands out records one at a time and waits a millisecond after each. */
  private static SplitReader aMillisecondPerRecord(SplitReader reader) {
    return new ForwardingSplitReader(reader) {
      @Override
      public int read(SplitOutput out, int max) {
        int n = reader.read(out, Math.min(max, 1));
        if (n > 0) {
          LockSupport.parkNanos(1_000_000_000L / RECORDS_PER_SECOND_PER_SUBTASK);
        }
        return n;
      }
    };
  }

  /**
   * Writes clicks of 20 users at {@link #rate} records a second of wall time (one millisecond of event
   * time apart, spread over the partitions) on its own thread until closed; then one record an hour of
   * event time later on every partition.
   */
  private static final class Feed implements AutoCloseable {
    volatile int rate;
    volatile long written;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    private final KafkaProducer<String, String> producer;
    private final Map<String, Long> expected;

    Feed(Map<String, Long> expected) {
      this.expected = expected;
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
      producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
      thread = new Thread(this::run, "click-feed");
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      long i = 0;
      long started = System.nanoTime();
      double due = 0;
      long last = started;
      while (!stop.get()) {
        long now = System.nanoTime();
        due += (now - last) / 1e9 * rate;
        last = now;
        while (due >= 1) {
          String user = "u" + (i % 20);
          producer.send(new ProducerRecord<>("clicks", (int) (i % PARTITIONS), null,
              "{\"user\":\"" + user + "\",\"ts\":" + i + "}"));
          synchronized (expected) {
            expected.merge(user + "@" + (i / 1000 * 1000), 1L, Long::sum);
          }
          i++;
          due--;
        }
        written = i;
        LockSupport.parkNanos(5_000_000); // pacing of the load, not synchronisation
      }
      for (int part = 0; part < PARTITIONS; part++) {
        producer.send(new ProducerRecord<>("clicks", part, null, "{\"user\":\"end\",\"ts\":" + (i + 3_600_000) + "}"));
      }
      producer.flush();
    }

    @Override
    public void close() throws InterruptedException {
      if (stop.compareAndSet(false, true)) {
        thread.join();
        producer.close();
      }
    }
  }
}
