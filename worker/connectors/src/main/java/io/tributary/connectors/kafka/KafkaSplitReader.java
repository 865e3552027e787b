package io.tributary.connectors.kafka;

import io.tributary.connect.SplitOutput;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.connectors.json.MalformedRecordException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads one partition with its own consumer. Each {@link #read} polls for at most {@link
 * #POLL_TIMEOUT} and hands out at most {@code max} records, keeping the rest for the next call.
 */
final class KafkaSplitReader implements SplitReader {
  /** The longest a read may wait for the broker. */
  static final Duration POLL_TIMEOUT = Duration.ofMillis(2);

  private final TopicPartition partition;
  private final Map<String, Object> config;
  private final boolean fromEarliest;
  private final boolean hasGroup;
  /** Where to start instead of {@code fromEarliest}/the group's offset; -1 for none. */
  private final long startOffset;
  private KafkaConsumer<byte[], byte[]> consumer;
  private Iterator<ConsumerRecord<byte[], byte[]>> pending = Collections.emptyIterator();
  private long position = -1;

  KafkaSplitReader(TopicPartition partition, Map<String, Object> config, boolean fromEarliest,
      boolean hasGroup) {
    this(partition, config, fromEarliest, hasGroup, -1);
  }

  /** A reader that starts at {@code startOffset} (ignoring {@code fromEarliest} and the group) when it is not -1. */
  KafkaSplitReader(TopicPartition partition, Map<String, Object> config, boolean fromEarliest,
      boolean hasGroup, long startOffset) {
    this.partition = partition;
    this.config = config;
    this.fromEarliest = fromEarliest;
    this.hasGroup = hasGroup;
    this.startOffset = startOffset;
    this.position = startOffset;
  }

  @Override
  public int read(SplitOutput out, int max) {
    if (consumer == null) {
      open();
    }
    if (!pending.hasNext()) {
      pending = consumer.poll(POLL_TIMEOUT).records(partition).iterator();
    }
    int n = 0;
    while (n < max && pending.hasNext()) {
      ConsumerRecord<byte[], byte[]> r = pending.next();
      emit(r.value(), out);
      position = r.offset() + 1;
      n++;
    }
    return n;
  }

  /** The offset of the next record this reader will hand out; -1 before the first one. */
  long nextOffset() {
    return position;
  }

  /**
   * The offset of the next record to read, as a decimal string (once every polled record was handed
   * out, the consumer's position, which skips transaction markers). Before the first record it is the
   * offset this reader was opened at, else the offset the consumer has already resolved for its
   * start ({@code earliest}, {@code latest} or the group's); null while that is not known yet
   * (resuming from null then starts over as configured, which reads nothing twice as nothing was read).
   */
  @Override
  public String position() {
    if (consumer != null && !pending.hasNext() && position >= 0) {
      // everything polled was handed out: the consumer's position is past it and past any
      // transaction markers after it, so a watcher comparing end offsets sees nothing new
      try {
        position = Math.max(position, consumer.position(partition, Duration.ZERO));
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        // not known without asking the broker: the last record's next offset is as good
      }
    }
    if (position >= 0) {
      return Long.toString(position);
    }
    if (consumer == null) {
      return null;
    }
    try {
      return Long.toString(consumer.position(partition, Duration.ZERO));
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      return null;
    }
  }

  private void open() {
    consumer = new KafkaConsumer<>(config);
    consumer.assign(List.of(partition));
    if (startOffset >= 0) {
      consumer.seek(partition, startOffset);
    } else if (!hasGroup) {
      if (fromEarliest) {
        consumer.seekToBeginning(List.of(partition));
      } else {
        consumer.seekToEnd(List.of(partition));
      }
    }
  }

  private static void emit(byte[] value, SplitOutput out) {
    if (value == null) {
      out.malformed("", "message without a value (tombstone)");
      return;
    }
    try {
      out.record(JsonRecords.parse(value));
    } catch (MalformedRecordException e) {
      out.malformed(new String(value, StandardCharsets.UTF_8), e.getMessage());
    }
  }

  @Override
  public void close() {
    if (consumer != null) {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(1)));
      consumer = null;
    }
  }
}
