package io.tributary.connectors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connect.ConnectorException;
import io.tributary.connectors.internal.ConnectorProperties;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Building a Kafka sink from spec properties; nothing here talks to a broker. */
class KafkaSinkTest {
  @Test
  void aSendThatTimesOutSaysWhatToCheckAndOtherFailuresAreAsKafkaSaid() {
    assertThat(KafkaSinkWriter.describe("o", "t",
        new org.apache.kafka.common.errors.TimeoutException("Topic t not present in metadata after 60000 ms.")))
        .isEqualTo("kafka sink 'o': sending to topic 't' failed: Topic t not present in metadata after 60000 ms;"
            + " check bootstrapServers (is a broker answering there?) and that the topic exists");
    assertThat(KafkaSinkWriter.describe("o", "t",
        new org.apache.kafka.common.errors.RecordTooLargeException("too large")))
        .isEqualTo("kafka sink 'o': sending to topic 't' failed: too large");
  }

  @Test
  void exactlyOnceTakesItsTransactionTimeoutAsADuration() {
    KafkaSink sink = sink(Map.of("delivery", "exactly-once", "transactionTimeout", "5m",
        "transactionalIdPrefix", "orders"));

    assertThat(sink.producerConfig()).containsEntry("transaction.timeout.ms", "300000");
  }

  @Test
  void exactlyOnceDefaultsToFifteenMinutesOrTheRawProducerSetting() {
    assertThat(sink(Map.of("delivery", "exactly-once")).producerConfig())
        .containsEntry("transaction.timeout.ms", "900000");
    assertThat(sink(Map.of("delivery", "exactly-once", "properties", Map.of("transaction.timeout.ms", 60000L)))
        .producerConfig()).containsEntry("transaction.timeout.ms", "60000");
    assertThat(sink(Map.of()).producerConfig()).doesNotContainKey("transaction.timeout.ms");
  }

  @Test
  void upsertNeedsKeyFields() {
    assertThat(sink(Map.of("delivery", "upsert", "keyFields", List.of("k")))).isNotNull();
    expectError(Map.of("delivery", "upsert"), "kafka sink 'out': delivery: upsert needs property 'keyFields'");
    assertThatThrownBy(() -> new KafkaSink("out", "h:1", "t", List.of(), Map.of(), KafkaSink.Delivery.UPSERT, null))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("needs keyFields");
  }

  @Test
  void errorsNameThePropertyToFix() {
    expectError(Map.of("delivery", "twice"), "'delivery' must be one of [at-least-once, exactly-once, upsert]");
    expectError(Map.of("transactionTimeout", "5m"), "'transactionTimeout' needs delivery: exactly-once");
    expectError(Map.of("delivery", "upsert", "keyFields", "k", "transactionalIdPrefix", "x"),
        "'transactionalIdPrefix' needs delivery: exactly-once");
    expectError(Map.of("delivery", "exactly-once", "transactionTimeout", "soon"), "property 'transactionTimeout'");
    expectError(Map.of("delivery", "exactly-once", "transactionTimeout", "0s"),
        "'transactionTimeout' must be a positive duration");
    expectError(Map.of("delivery", "exactly-once", "transactionTimeout", "5m",
        "properties", Map.of("transaction.timeout.ms", "60000")), "not both");
    expectError(Map.of("transactionTimout", "5m"), "unknown property 'transactionTimout'");
  }

  private static KafkaSink sink(Map<String, Object> properties) {
    Map<String, Object> p = new HashMap<>(Map.of("bootstrapServers", "h:1", "topic", "t"));
    p.putAll(properties);
    return KafkaSink.fromProperties("out", new ConnectorProperties("kafka sink 'out'", p));
  }

  private static void expectError(Map<String, Object> properties, String message) {
    assertThatThrownBy(() -> sink(properties)).isInstanceOf(ConnectorException.class).hasMessageContaining(message);
  }
}
