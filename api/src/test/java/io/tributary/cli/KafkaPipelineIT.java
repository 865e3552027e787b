package io.tributary.cli;

import io.tributary.worker.state.StateBackends;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connectors.kafka.KafkaBroker;
import io.tributary.plan.ExecutionPlan;
import io.tributary.scheduler.spec.JobSpecs;
import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.JobMaster;
import io.tributary.worker.pool.InProcessWorkerPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A job from Kafka to Kafka against a real broker (its own process): partitions are splits, window
 * results are exact, malformed messages are counted and do not stop the job.
 */
class KafkaPipelineIT {
  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() throws Exception {
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void windowedCountsFromKafkaToKafka() throws Exception {
    broker.createTopic("clicks", 3);
    broker.createTopic("counts", 1);
    Map<String, Long> expected = new TreeMap<>();
    try (KafkaProducer<String, String> producer = producer()) {
      for (int i = 0; i < 3_000; i++) {
        String user = "u" + (i % 5);
        long ts = i * 10L; // 30 s of event time
        producer.send(new ProducerRecord<>("clicks", i % 3, null,
            "{\"user\":\"" + user + "\",\"ts\":" + ts + "}"));
        expected.merge(user + "@" + (ts / 10_000 * 10_000), 1L, Long::sum);
      }
      producer.send(new ProducerRecord<>("clicks", 0, null, "{broken"));
      // event time far ahead on every partition closes the last window
      for (int p = 0; p < 3; p++) {
        producer.send(new ProducerRecord<>("clicks", p, null, "{\"user\":\"end\",\"ts\":100000}"));
      }
      producer.flush();
    }

    String spec = """
        name: kafka-counts
        parallelism: 2
        sources:
          clicks: {type: kafka, bootstrapServers: "%1$s", topic: clicks, startFrom: earliest, eventTime: {field: ts}}
        operators:
          - {id: per-user, input: clicks, keyBy: [user], window: {type: tumbling, size: 10s}, aggregate: {n: "count(*)"}}
        sinks:
          out: {input: per-user, type: kafka, bootstrapServers: "%1$s", topic: counts, keyFields: [user]}
        """.formatted(broker.bootstrapServers());
    ExecutionPlan plan = Jobs.plan(JobSpecs.parse(spec), null);
    try (StateBackends state = new StateBackends();
        LocalRun job = LocalRun.create(JobMaster.Settings.withoutCheckpoints(plan),
            InProcessWorkerPool.Options.of(state.factories()), null, new JobMaster.Events() {});
        KafkaConsumer<String, String> consumer = consumer()) {
      Thread running = new Thread(() -> {
        try {
          job.run();
        } catch (InterruptedException | java.util.concurrent.CancellationException e) {
          // cancelled at the end of the test
        }
      }, "kafka-pipeline");
      running.start();
      consumer.subscribe(List.of("counts"));
      Map<String, Long> actual = new TreeMap<>();
      List<String> raw = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (actual.size() < expected.size() && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
          raw.add(r.value());
          Map<?, ?> m = new com.fasterxml.jackson.databind.ObjectMapper().readValue(r.value(), Map.class);
          actual.merge(m.get("user") + "@" + m.get("window_start"), ((Number) m.get("n")).longValue(), Long::sum);
        }
        assertThat(running.isAlive()).as("the unbounded job keeps running").isTrue();
      }
      assertThat(actual).as(String.join("\n", raw)).isEqualTo(expected);
      assertThat(job.attempt().metrics().snapshot().stream().flatMap(t -> t.operators().stream())
          .mapToLong(o -> o.malformed()).sum()).isEqualTo(1);
      job.cancel();
      running.join();
    }
  }

  private static KafkaProducer<String, String> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
  }

  private static KafkaConsumer<String, String> consumer() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + System.nanoTime());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
  }
}
