package io.tributary.connectors.kafka;

import io.tributary.connect.ConnectorException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * A producer with a fixed transactional id that runs one transaction at a time; begins one on the
 * first send after the previous ended. Not thread-safe: its owner serialises calls.
 */
final class TransactionalProducer {
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final String sinkId;
  private final String topic;
  private final String transactionalId;
  private final KafkaProducer<byte[], byte[]> producer;
  private final AtomicReference<Exception> firstError = new AtomicReference<>();
  private final Callback onSent = (metadata, e) -> {
    if (e != null) {
      firstError.compareAndSet(null, e);
    }
  };
  private boolean inTransaction;

  /**
   * Creates the producer and initialises its transactions, which fences earlier producers of the
   * same id and aborts what they left open.
   */
  TransactionalProducer(String sinkId, String topic, String transactionalId, Map<String, Object> config) {
    this.sinkId = sinkId;
    this.topic = topic;
    this.transactionalId = transactionalId;
    Map<String, Object> c = new HashMap<>(config);
    c.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    c.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "tributary-" + transactionalId);
    try {
      this.producer = new KafkaProducer<>(c);
    } catch (KafkaException e) {
      throw new ConnectorException("kafka sink '" + sinkId + "': bad producer settings: " + e.getMessage(), e);
    }
    try {
      producer.initTransactions();
    } catch (KafkaException e) {
      producer.close(Duration.ZERO);
      throw failure("initialising transactions", e);
    }
  }

  String transactionalId() {
    return transactionalId;
  }

  void send(ProducerRecord<byte[], byte[]> record) {
    throwIfFailed();
    try {
      if (!inTransaction) {
        producer.beginTransaction();
        inTransaction = true;
      }
      producer.send(record, onSent);
    } catch (KafkaException e) {
      throw failure("sending", e);
    }
  }

  /** Waits until everything sent is acknowledged; fails if any send failed. */
  void flush() {
    try {
      producer.flush();
    } catch (KafkaException e) {
      throw failure("flushing", e);
    }
    throwIfFailed();
  }

  void commitTransaction() {
    throwIfFailed();
    try {
      producer.commitTransaction();
      inTransaction = false;
    } catch (KafkaException e) {
      throw failure("committing transaction " + transactionalId, e);
    }
  }

  /** Aborts the open transaction, if any; failures are ignored (the broker aborts it later anyway). */
  void abortQuietly() {
    if (inTransaction) {
      inTransaction = false;
      try {
        producer.abortTransaction();
      } catch (KafkaException e) {
        // fenced, timed out or already failed: nothing this producer can do any more
      }
    }
  }

  /**
   * Closes without committing. The Kafka client aborts a transaction still open on a graceful close
   * like this one; a process that dies leaves it open until fenced or timed out.
   */
  void close() {
    producer.close(CLOSE_TIMEOUT);
  }

  private void throwIfFailed() {
    Exception e = firstError.get();
    if (e != null) {
      throw failure("sending", e);
    }
  }

  private ConnectorException failure(String what, Exception e) {
    return new ConnectorException("kafka sink '" + sinkId + "': " + what + " to topic '" + topic
        + "' failed: " + e.getMessage(), e);
  }
}
