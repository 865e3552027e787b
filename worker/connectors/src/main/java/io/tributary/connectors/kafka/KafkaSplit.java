package io.tributary.connectors.kafka;

import io.tributary.connect.SourceSplit;
import org.apache.kafka.common.TopicPartition;

/** One partition of a Kafka topic; its id is {@code <topic>-<partition>}. */
public record KafkaSplit(String topic, int partition) implements SourceSplit {
  @Override
  public String id() {
    return topic + "-" + partition;
  }

  TopicPartition topicPartition() {
    return new TopicPartition(topic, partition);
  }
}
