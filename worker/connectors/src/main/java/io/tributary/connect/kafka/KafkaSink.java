package io.tributary.connect.kafka;

import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * An at-least-once sink writing each record as a JSON object to a Kafka topic. The message key is
 * the JSON object of {@code keyFields} (null when none are given, so Kafka spreads messages).
 * Every subtask has an idempotent producer with {@code acks=all}; {@link SinkWriter#commit()}
 * flushes it and fails if any send failed.
 */
public final class KafkaSink implements SinkConnector {
  private final String sinkId;
  private final String topic;
  private final List<String> keyFields;
  private final Map<String, Object> producerConfig;

  /**
   * @param extra further producer properties; they override the defaults
   */
  public KafkaSink(String sinkId, String bootstrapServers, String topic, List<String> keyFields,
      Map<String, String> extra) {
    this.sinkId = sinkId;
    this.topic = topic;
    this.keyFields = List.copyOf(keyFields);
    Map<String, Object> c = new HashMap<>();
    c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    c.put(ProducerConfig.ACKS_CONFIG, "all");
    c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    c.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    c.putAll(extra);
    this.producerConfig = Map.copyOf(c);
  }

  @Override
  public SinkWriter open(int subtaskIndex, int parallelism) {
    Map<String, Object> c = new HashMap<>(producerConfig);
    c.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "tributary-" + sinkId + "-" + subtaskIndex);
    return new KafkaSinkWriter(sinkId, topic, keyFields, c);
  }
}
