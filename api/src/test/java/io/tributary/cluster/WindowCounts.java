package io.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connectors.kafka.KafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The committed results of a keyed window count, as the tests' Kafka sinks write them. */
public final class WindowCounts {
  private WindowCounts() {}

  /**
   * Every {@code user@window_start -> n} committed to {@code topic} (read with
   * {@code read_committed}), failing the test if a result was committed twice.
   */
  public static Map<String, Long> readCommitted(KafkaBroker kafka, String topic, int partitions) {
    Map<String, Long> out = new HashMap<>();
    List<String> duplicates = new ArrayList<>();
    for (String value : committedValues(kafka, topic, partitions)) {
      Map<String, Object> m = parse(value);
      String key = m.get("user") + "@" + m.get("window_start");
      if (out.put(key, ((Number) m.get("n")).longValue()) != null) {
        duplicates.add(key);
      }
    }
    assertThat(duplicates).as("results committed more than once").isEmpty();
    return out;
  }

  /** Every value committed to {@code topic} (read with {@code read_committed}), partition by partition. */
  public static List<String> committedValues(KafkaBroker kafka, String topic, int partitions) {
    List<TopicPartition> tps = IntStream.range(0, partitions).mapToObj(i -> new TopicPartition(topic, i)).toList();
    List<String> out = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new StringDeserializer())) {
      c.assign(tps);
      c.seekToBeginning(tps);
      Map<TopicPartition, Long> end = c.endOffsets(tps);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(100)).forEach(r -> out.add(r.value()));
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> parse(String json) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readValue(json, Map.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
