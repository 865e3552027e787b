package io.tributary.connectors.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tributary.connect.ConnectorException;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * A pre-committed Kafka transaction, as it goes into checkpoint metadata: everything another
 * process needs to find and commit this one transaction. As JSON:
 *
 * <pre>{@code
 * {"transactionalId":"tributary-out-0-3-1","producerId":1042,"epoch":7,"startTimeMs":1767225600123,"checkpointId":12}
 * }</pre>
 *
 * @param transactionalId the transactional id it was written under
 * @param producerId the producer id the transaction coordinator reported for it while it was open
 * @param epoch the producer epoch the coordinator reported for it while it was open
 * @param startTimeMs when the coordinator saw the transaction begin (its clock); 0 if unknown. It
 *     tells transactions of the same producer id and epoch apart: with Kafka's transaction protocol
 *     version 2 (the default of 4.x clusters) the coordinator bumps the epoch when a transaction
 *     ends, so producer id and epoch alone name one transaction, but with version 1 one producer's
 *     successive transactions share them
 * @param checkpointId the checkpoint whose barrier pre-committed it (or a later one that found
 *     nothing new to pre-commit and names it again)
 */
record KafkaCommittable(String transactionalId, long producerId, int epoch, long startTimeMs, long checkpointId) {
  private static final JsonMapper JSON = new JsonMapper();

  String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The same transaction named again for a later checkpoint. */
  KafkaCommittable forCheckpoint(long checkpointId) {
    return new KafkaCommittable(transactionalId, producerId, epoch, startTimeMs, checkpointId);
  }

  /** Whether both name the same transaction. */
  boolean sameTransaction(KafkaCommittable other) {
    return transactionalId.equals(other.transactionalId) && producerId == other.producerId
        && epoch == other.epoch && startTimeMs == other.startTimeMs;
  }

  /** Whether the coordinator describes this transaction as still open (neither committed nor aborted). */
  boolean isOpenIn(TransactionDescription d) {
    return d != null && d.state() == TransactionState.ONGOING
        && d.producerId() == producerId && d.producerEpoch() == epoch
        && (startTimeMs <= 0 || d.transactionStartTimeMs().orElse(-1) == startTimeMs);
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
