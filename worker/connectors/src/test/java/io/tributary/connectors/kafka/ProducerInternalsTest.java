package io.tributary.connectors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The Kafka client internals {@link ProducerInternals} relies on are still there: fails on a
 * kafka-clients upgrade that moves them, before any recovery does. Talks to no broker.
 */
class ProducerInternalsTest {
  @Test
  void aResumedProducerIsInTheTransactionItTookOver() {
    KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9",
        ProducerConfig.TRANSACTIONAL_ID_CONFIG, "resume-me",
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
    try {
      assertThatThrownBy(p::beginTransaction).as("not initialised").isInstanceOf(IllegalStateException.class);

      ProducerInternals.resume(p, 42, (short) 7);

      assertThatThrownBy(p::beginTransaction).as("already in a transaction")
          .hasMessageContaining("from state IN_TRANSACTION to state IN_TRANSACTION");
      assertThat(ProducerInternals.transactionV2(p)).as("has not learned the cluster's version").isFalse();
    } finally {
      p.close(Duration.ZERO);
    }
  }
}
