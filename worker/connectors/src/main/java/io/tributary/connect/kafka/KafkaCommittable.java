package io.tributary.connect.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tributary.connect.ConnectorException;

/**
 * A pre-committed Kafka transaction, as it goes into checkpoint metadata: its transactional id and
 * the producer id and epoch the transaction coordinator reported for it while it was open (together
 * they name this one transaction, since the coordinator bumps the epoch when a transaction ends).
 */
record KafkaCommittable(String transactionalId, long producerId, int epoch, long checkpointId) {
  private static final JsonMapper JSON = new JsonMapper();

  String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static KafkaCommittable parse(String sinkId, String json) {
    try {
      KafkaCommittable c = JSON.readValue(json, KafkaCommittable.class);
      if (c.transactionalId() == null) {
        throw new ConnectorException("kafka sink '" + sinkId + "': committable without transactionalId: " + json);
      }
      return c;
    } catch (JsonProcessingException e) {
      throw new ConnectorException("kafka sink '" + sinkId + "': not a Kafka committable: " + json, e);
    }
  }
}
