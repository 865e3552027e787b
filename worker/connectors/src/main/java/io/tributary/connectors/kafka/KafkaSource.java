package io.tributary.connectors.kafka;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * An unbounded source reading JSON objects from a Kafka topic; its splits are the topic's
 * partitions, discovered when {@link #splits} is called. Readers assign their partition (no
 * consumer-group rebalancing) and never commit offsets. Without a {@code groupId} they start at the
 * earliest or latest offset ({@code startFrom}); with one, at the group's committed offset when it
 * has one, else at {@code startFrom}.
 */
public final class KafkaSource implements SourceConnector {
  private static final long METADATA_TIMEOUT_MS = 30_000;

  private final String sourceId;
  private final String topic;
  private final boolean fromEarliest;
  private final boolean hasGroup;
  private final Map<String, Object> consumerConfig;

  /**
   * @param startFrom {@code earliest} or {@code latest}
   * @param groupId consumer group, or null
   * @param extra further consumer properties; they override the defaults, never the bootstrap servers,
   *     deserializers, offset reset, auto commit or group
   */
  public KafkaSource(String sourceId, String bootstrapServers, String topic, String startFrom,
      String groupId, Map<String, String> extra) {
    this.sourceId = sourceId;
    this.topic = topic;
    this.fromEarliest = "earliest".equals(startFrom);
    this.hasGroup = groupId != null;
    Map<String, Object> c = new HashMap<>();
    c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1000");
    c.putAll(extra);
    // what the source itself decides is never overridden by extra settings
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, startFrom);
    if (groupId != null) {
      c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    } else {
      c.remove(ConsumerConfig.GROUP_ID_CONFIG);
    }
    this.consumerConfig = Map.copyOf(c);
  }

  @Override
  public List<KafkaSplit> splits(int parallelism) {
    Map<String, Object> adminConfig = new HashMap<>(consumerConfig);
    adminConfig.keySet().retainAll(AdminClientConfig.configNames());
    try (Admin admin = Admin.create(adminConfig)) {
      TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
          .get(METADATA_TIMEOUT_MS, TimeUnit.MILLISECONDS).get(topic);
      return d.partitions().stream()
          .map(p -> new KafkaSplit(topic, p.partition()))
          .sorted(Comparator.comparingInt(KafkaSplit::partition))
          .toList();
    } catch (ExecutionException e) {
      throw new ConnectorException("kafka source '" + sourceId + "': cannot describe topic '" + topic
          + "' at " + consumerConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new ConnectorException("kafka source '" + sourceId + "': no answer from "
          + consumerConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + " within "
          + METADATA_TIMEOUT_MS + " ms; check bootstrapServers", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectorException("kafka source '" + sourceId + "': interrupted", e);
    }
  }

  @Override
  public SplitReader open(SourceSplit split) {
    if (!(split instanceof KafkaSplit k)) {
      throw new IllegalArgumentException("not a Kafka split: " + split);
    }
    return new KafkaSplitReader(k.topicPartition(), consumerConfig, fromEarliest, hasGroup);
  }

  /**
   * Resumes at {@code position}, the offset {@link KafkaSplitReader#position()} returned. If the
   * broker deleted that offset meanwhile (retention), the consumer's {@code auto.offset.reset}
   * ({@code startFrom}) applies.
   */
  @Override
  public SplitReader open(SourceSplit split, String position) {
    if (position == null) {
      return open(split);
    }
    if (!(split instanceof KafkaSplit k)) {
      throw new IllegalArgumentException("not a Kafka split: " + split);
    }
    long offset;
    try {
      offset = Long.parseLong(position);
    } catch (NumberFormatException e) {
      offset = -1;
    }
    if (offset < 0) {
      throw new IllegalArgumentException("kafka source '" + sourceId + "': bad position '" + position
          + "' for split " + split.id() + "; expected an offset");
    }
    return new KafkaSplitReader(k.topicPartition(), consumerConfig, fromEarliest, hasGroup, offset);
  }

  @Override
  public boolean bounded() {
    return false;
  }

  /** How long {@link #backlog} waits for the broker. */
  private static final long PENDING_TIMEOUT_MS = 5_000;

  /**
   * The records beyond {@code positions} on every partition of the topic (its end offset minus the
   * position; a partition without one counts from where a new reader starts: the group's committed
   * offset, else the earliest offset, or nothing when reading from the latest), and the sum of its
   * end offsets (what was ever written; records deleted by retention still count), and its number
   * of partitions. Under
   * {@code isolation.level=read_committed} end offsets are the last stable ones, and a committed
   * transaction's marker counts as one record: at worst a job resumes to read nothing.
   */
  @Override
  public java.util.Optional<io.tributary.connect.SourceBacklog> backlog(Map<String, String> positions) {
    Map<String, Object> adminConfig = new HashMap<>(consumerConfig);
    adminConfig.keySet().retainAll(AdminClientConfig.configNames());
    boolean committedOnly = "read_committed".equals(
        String.valueOf(consumerConfig.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG)));
    try (Admin admin = Admin.create(adminConfig)) {
      TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
          .get(PENDING_TIMEOUT_MS, TimeUnit.MILLISECONDS).get(topic);
      Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> ends = new HashMap<>();
      Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> starts = new HashMap<>();
      for (var p : d.partitions()) {
        var tp = new org.apache.kafka.common.TopicPartition(topic, p.partition());
        ends.put(tp, org.apache.kafka.clients.admin.OffsetSpec.latest());
        if (!positions.containsKey(new KafkaSplit(topic, p.partition()).id())) {
          starts.put(tp, org.apache.kafka.clients.admin.OffsetSpec.earliest());
        }
      }
      var options = new org.apache.kafka.clients.admin.ListOffsetsOptions(committedOnly
          ? org.apache.kafka.common.IsolationLevel.READ_COMMITTED : org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED);
      var endOffsets = admin.listOffsets(ends, options).all().get(PENDING_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      Map<org.apache.kafka.common.TopicPartition, Long> from = new HashMap<>();
      if (!starts.isEmpty()) {
        if (hasGroup) {
          admin.listConsumerGroupOffsets(String.valueOf(consumerConfig.get(ConsumerConfig.GROUP_ID_CONFIG)))
              .partitionsToOffsetAndMetadata().get(PENDING_TIMEOUT_MS, TimeUnit.MILLISECONDS)
              .forEach((tp, om) -> {
                if (om != null && starts.containsKey(tp)) {
                  from.put(tp, om.offset());
                }
              });
        }
        if (fromEarliest) {
          admin.listOffsets(starts, options).all().get(PENDING_TIMEOUT_MS, TimeUnit.MILLISECONDS)
              .forEach((tp, info) -> from.putIfAbsent(tp, info.offset()));
        }
      }
      long pending = 0;
      long written = 0;
      for (var e : endOffsets.entrySet()) {
        written += e.getValue().offset();
        String at = positions.get(new KafkaSplit(topic, e.getKey().partition()).id());
        long start;
        if (at != null) {
          try {
            start = Long.parseLong(at);
          } catch (NumberFormatException bad) {
            start = e.getValue().offset();
          }
        } else {
          start = from.getOrDefault(e.getKey(), e.getValue().offset());
        }
        pending += Math.max(0, e.getValue().offset() - start);
      }
      return java.util.Optional.of(new io.tributary.connect.SourceBacklog(pending, written, d.partitions().size()));
    } catch (ExecutionException e) {
      throw new ConnectorException("kafka source '" + sourceId + "': cannot read the offsets of topic '" + topic
          + "' at " + consumerConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new ConnectorException("kafka source '" + sourceId + "': no answer from "
          + consumerConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + " within " + PENDING_TIMEOUT_MS
          + " ms; check bootstrapServers", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectorException("kafka source '" + sourceId + "': interrupted", e);
    }
  }
}
