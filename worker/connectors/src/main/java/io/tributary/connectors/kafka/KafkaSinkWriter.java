package io.tributary.connectors.kafka;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkWriter;
import io.tributary.connectors.json.ChangelogRows;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.stream.Record;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/** One subtask's producer of a {@link KafkaSink}. */
final class KafkaSinkWriter implements SinkWriter {
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final String sinkId;
  private final String topic;
  private final List<String> keyFields;
  private final KafkaProducer<byte[], byte[]> producer;
  private final AtomicReference<Exception> firstError = new AtomicReference<>();
  private final Callback onSent = (metadata, e) -> {
    if (e != null) {
      firstError.compareAndSet(null, e);
    }
  };

  /** Non-null when the input is an upsert stream: values without {@code _op}, deletes as tombstones. */
  private final ChangelogRows changelog;

  /** @param changelog whether the input is an upsert stream (see {@link io.tributary.stream.Changelog}) */
  KafkaSinkWriter(String sinkId, String topic, List<String> keyFields, Map<String, Object> config, boolean changelog) {
    this.changelog = changelog ? new ChangelogRows() : null;
    this.sinkId = sinkId;
    this.topic = topic;
    this.keyFields = keyFields;
    try {
      this.producer = new KafkaProducer<>(config);
    } catch (KafkaException e) {
      throw new ConnectorException("kafka sink '" + sinkId + "': bad producer settings: " + e.getMessage(), e);
    }
  }

  @Override
  public void write(Record record) {
    throwIfFailed();
    byte[] key = keyFields.isEmpty() && changelog == null ? null : JsonRecords.toJsonBytes(record, keyFields);
    byte[] value = changelog == null ? JsonRecords.toJsonBytes(record)
        : ChangelogRows.isDelete(record) ? null : JsonRecords.toJsonBytes(changelog.withoutOp(record));
    try {
      producer.send(new ProducerRecord<>(topic, key, value), onSent);
    } catch (KafkaException e) {
      throw failure(e);
    }
  }

  @Override
  public void commit() {
    try {
      producer.flush();
    } catch (KafkaException e) {
      throw failure(e);
    }
    throwIfFailed();
  }

  @Override
  public void close() {
    producer.close(CLOSE_TIMEOUT);
  }

  private void throwIfFailed() {
    Exception e = firstError.get();
    if (e != null) {
      throw failure(e);
    }
  }

  private ConnectorException failure(Exception e) {
    return new ConnectorException(describe(sinkId, topic, e), e);
  }

  /**
   * Why sending failed; a timeout says what to check, since Kafka's message ("Topic t not present in
   * metadata") reads the same when no broker answers at all.
   */
  static String describe(String sinkId, String topic, Exception e) {
    String why = "kafka sink '" + sinkId + "': sending to topic '" + topic + "' failed: " + e.getMessage();
    if (!(e instanceof org.apache.kafka.common.errors.TimeoutException)) {
      return why;
    }
    return (why.endsWith(".") ? why.substring(0, why.length() - 1) : why)
        + "; check bootstrapServers (is a broker answering there?) and that the topic exists";
  }
}
