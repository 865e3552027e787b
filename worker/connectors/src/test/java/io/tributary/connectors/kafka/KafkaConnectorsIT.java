package io.tributary.connectors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connectors.CollectingOutput;
import io.tributary.connect.ConnectorException;
import io.tributary.connectors.Connectors;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.connect.SourceConnector;
import io.tributary.connect.SourceSplit;
import io.tributary.connect.SplitReader;
import io.tributary.connectors.internal.ConnectorProperties;
import io.tributary.connectors.json.JsonRecords;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class KafkaConnectorsIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Schema WINDOW_RESULT = Schema.of("auction", "window_start", "window_end", "bids");
  private static KafkaBroker kafka;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = KafkaBroker.start();
  }

  @AfterAll
  static void stopKafka() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void sourceReadsEveryPartitionAsASplitAndCountsMalformedMessages() throws Exception {
    kafka.createTopic("events", 3);
    try (KafkaProducer<String, String> producer = producer()) {
      for (int i = 0; i < 30; i++) {
        producer.send(new ProducerRecord<>("events", i % 3, null, "{\"i\":" + i + ",\"p\":" + i % 3 + "}"));
      }
      producer.send(new ProducerRecord<>("events", 1, null, "{broken"));
      producer.send(new ProducerRecord<>("events", 2, null, "[1]"));
      producer.flush();
    }
    SourceConnector source = Connectors.source(new SourcePlan("in", "kafka", "json", null, 0, null,
        Map.of("bootstrapServers", kafka.bootstrapServers(), "topic", "events", "startFrom", "earliest")));

    List<? extends SourceSplit> splits = source.splits(2);
    assertThat(splits).extracting(SourceSplit::id).containsExactly("events-0", "events-1", "events-2");
    assertThat(source.bounded()).isFalse();
    assertThat(source.backlog(Map.of("events-0", "4")))
        .as("6 records after offset 4 of events-0, all 11 of the others from the earliest; 32 written; 3 partitions")
        .hasValue(new io.tributary.connect.SourceBacklog(28, 32, 3));
    for (SourceSplit split : splits) {
      CollectingOutput out = readUntil(source, split, 10 + (split.id().equals("events-0") ? 0 : 1));
      int p = Integer.parseInt(split.id().substring("events-".length()));
      assertThat(out.records).as(split.id()).hasSize(10).allSatisfy(r -> assertThat(r.get("p")).isEqualTo((long) p));
      assertThat(out.records).extracting(r -> r.get("i")).isSorted();
      assertThat(out.malformed).hasSize(p == 0 ? 0 : 1);
    }
  }

  @Test
  void latestSkipsWhatIsAlreadyThere() throws Exception {
    kafka.createTopic("late", 1);
    try (KafkaProducer<String, String> producer = producer()) {
      producer.send(new ProducerRecord<>("late", "{\"old\":true}")).get();
    }
    SourceConnector source = Connectors.source(new SourcePlan("in", "kafka", "json", null, 0, null,
        Map.of("bootstrapServers", kafka.bootstrapServers(), "topic", "late", "startFrom", "latest")));
    try (SplitReader reader = source.open(source.splits(1).get(0))) {
      CollectingOutput out = new CollectingOutput();
      try (KafkaProducer<String, String> producer = producer()) {
        // The reader positions itself on its first reads; keep sending until a new record arrives.
        await(() -> {
          producer.send(new ProducerRecord<>("late", "{\"old\":false}"));
          producer.flush();
          reader.read(out, 10);
          return !out.records.isEmpty();
        });
      }
      assertThat(out.records).extracting(r -> r.get("old")).containsOnly(false);
    }
  }

  @Test
  void aReaderResumesAtThePositionAnotherReachedSoTogetherTheyReadTheTopicOnce() throws Exception {
    kafka.createTopic("resume", 2);
    try (KafkaProducer<String, String> producer = producer()) {
      for (int i = 0; i < 20; i++) {
        producer.send(new ProducerRecord<>("resume", 1, null, "{\"i\":" + i + "}"));
      }
      producer.flush();
    }
    SourceConnector source = Connectors.source(new SourcePlan("in", "kafka", "json", null, 0, null,
        Map.of("bootstrapServers", kafka.bootstrapServers(), "topic", "resume", "startFrom", "earliest")));
    SourceSplit split = source.splits(1).get(1);

    CollectingOutput first = new CollectingOutput();
    String position;
    try (SplitReader reader = source.open(split)) {
      assertThat(reader.position()).as("before the first read").isNull();
      await(() -> {
        reader.read(first, 3);
        return first.records.size() >= 7;
      });
      position = reader.position();
    }
    assertThat(position).isEqualTo(String.valueOf(first.records.size()));

    CollectingOutput second = new CollectingOutput();
    try (SplitReader reader = source.open(split, position)) {
      assertThat(reader.position()).isEqualTo(position);
      await(() -> {
        reader.read(second, 3);
        return first.records.size() + second.records.size() >= 20;
      });
      assertThat(reader.position()).isEqualTo("20");
    }
    List<Object> union = new ArrayList<>();
    first.records.forEach(r -> union.add(r.get("i")));
    second.records.forEach(r -> union.add(r.get("i")));
    assertThat(union).containsExactlyElementsOf(java.util.stream.LongStream.range(0, 20).boxed().toList());

    CollectingOutput fromStart = new CollectingOutput();
    try (SplitReader reader = source.open(split, null)) {
      await(() -> {
        reader.read(fromStart, 20);
        return fromStart.records.size() >= 20;
      });
    }
    assertThat(fromStart.records).hasSize(20);
    assertThatThrownBy(() -> source.open(split, "soon")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad position 'soon'");
  }

  @Test
  void positionOfAReaderThatReadNothingIsWhereItStarted() throws Exception {
    kafka.createTopic("quiet", 1);
    try (KafkaProducer<String, String> producer = producer()) {
      producer.send(new ProducerRecord<>("quiet", "{\"old\":true}")).get();
    }
    SourceConnector source = Connectors.source(new SourcePlan("in", "kafka", "json", null, 0, null,
        Map.of("bootstrapServers", kafka.bootstrapServers(), "topic", "quiet", "startFrom", "latest")));
    try (SplitReader reader = source.open(source.splits(1).get(0))) {
      CollectingOutput out = new CollectingOutput();
      await(() -> {
        reader.read(out, 10);
        return reader.position() != null;
      });
      assertThat(out.records).isEmpty();
      assertThat(reader.position()).isEqualTo("1");
    }
  }

  @Test
  void missingTopicIsAConnectorError() {
    SourceConnector source = Connectors.source(new SourcePlan("in", "kafka", "json", null, 0, null,
        Map.of("bootstrapServers", kafka.bootstrapServers(), "topic", "no-such-topic")));
    assertThatThrownBy(() -> source.splits(1))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("kafka source 'in'")
        .hasMessageContaining("no-such-topic");
  }

  @Test
  void sinkWritesJsonValuesWithKeyFieldsAndPublishesOnCommit() throws Exception {
    kafka.createTopic("out", 2);
    SinkConnector sink = Connectors.sink(new SinkPlan("out", "kafka", "json", Map.of(
        "bootstrapServers", kafka.bootstrapServers(), "topic", "out", "keyFields", List.of("user"))));
    Schema schema = Schema.of("user", "n");
    try (SinkWriter w = sink.open(0, 1)) {
      for (long n = 0; n < 20; n++) {
        w.write(new Record(schema, new Object[] {"u" + n % 4, n}, Record.NO_TIMESTAMP));
      }
      w.commit();
    }

    List<ConsumerRecord<byte[], byte[]>> read = consumeAll("out", 2, 20);
    assertThat(read).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .contains("{\"user\":\"u1\",\"n\":5}")
        .hasSize(20);
    for (ConsumerRecord<byte[], byte[]> r : read) {
      Object user = JsonRecords.parse(r.value()).get("user");
      assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("{\"user\":\"" + user + "\"}");
    }
    Map<String, Integer> partitionOfKey = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : read) {
      Integer earlier = partitionOfKey.putIfAbsent(new String(r.key(), StandardCharsets.UTF_8), r.partition());
      assertThat(earlier).isIn(null, r.partition());
    }
  }

  @Test
  void sinkCommitSurfacesSendErrors() {
    kafka.createTopic("small", 1);
    SinkConnector sink = Connectors.sink(new SinkPlan("out", "kafka", "json", Map.of(
        "bootstrapServers", kafka.bootstrapServers(), "topic", "small",
        "properties", Map.of("max.request.size", 2000L))));
    try (SinkWriter w = sink.open(0, 1)) {
      w.write(Record.of(Map.of("big", "x".repeat(5000)), Record.NO_TIMESTAMP));
      assertThatThrownBy(w::commit)
          .isInstanceOf(ConnectorException.class)
          .hasMessageContaining("kafka sink 'out'")
          .hasMessageContaining("small");
    }
  }

  @Test
  void upsertSinkKeysEveryResultSoAReplayOverwritesWhatItWroteBefore() throws Exception {
    kafka.createTopic("upserts", 3);
    SinkConnector sink = KafkaSink.fromProperties("totals", new ConnectorProperties("kafka sink 'totals'", Map.of(
        "bootstrapServers", kafka.bootstrapServers(), "topic", "upserts", "delivery", "upsert",
        "keyFields", List.of("auction", "window_start", "window_end"))));
    // Attempt 0 at parallelism 2 emits the windows 0..5 of four auctions; the checkpoint covered windows
    // 0..2 when it failed. Attempt 1 at parallelism 1 replays windows 3..5, then goes on to 6 and 7.
    try (SinkWriter a = sink.open(0, 2, 0); SinkWriter b = sink.open(1, 2, 0)) {
      for (int window = 0; window < 6; window++) {
        for (int auction = 0; auction < 4; auction++) {
          (auction % 2 == 0 ? a : b).write(windowResult(auction, window));
        }
      }
      a.preCommit(1);
      b.preCommit(1);
    }
    try (SinkWriter replay = sink.open(0, 1, 1)) {
      for (int window = 3; window < 8; window++) {
        for (int auction = 0; auction < 4; auction++) {
          replay.write(windowResult(auction, window));
        }
      }
      replay.commit();
    }

    List<ConsumerRecord<byte[], byte[]>> read = consumeAll("upserts", 3, 4 * 6 + 4 * 5);
    assertThat(read).as("the log holds the replayed results twice").hasSize(4 * 6 + 4 * 5);
    Map<String, String> lastPerKey = new HashMap<>();
    Map<String, Integer> partitionOfKey = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : read) {
      String key = new String(r.key(), StandardCharsets.UTF_8);
      Record value = JsonRecords.parse(r.value());
      assertThat(key).isEqualTo("{\"auction\":" + value.get("auction") + ",\"window_start\":"
          + value.get("window_start") + ",\"window_end\":" + value.get("window_end") + "}");
      assertThat(partitionOfKey.putIfAbsent(key, r.partition())).as(key).isIn(null, r.partition());
      lastPerKey.put(key, new String(r.value(), StandardCharsets.UTF_8));
    }
    List<String> expected = new ArrayList<>();
    for (int window = 0; window < 8; window++) {
      for (int auction = 0; auction < 4; auction++) {
        expected.add(JsonRecords.toJson(windowResult(auction, window)));
      }
    }
    assertThat(lastPerKey.values()).as("the last value per key: every result once")
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** A deterministic result of a one-minute window, as a replay produces it again. */
  @Test
  void anUpsertStreamIsKeyedByItsGroupWithoutItsOpAndADeleteIsATombstone() throws Exception {
    kafka.createTopic("group-totals", 2);
    SinkConnector sink = KafkaSink.fromProperties("totals", new ConnectorProperties("kafka sink 'totals'", Map.of(
        "bootstrapServers", kafka.bootstrapServers(), "topic", "group-totals", "delivery", "upsert")),
        List.of("auction"));
    Schema change = Schema.of("_op", "auction", "bids");
    try (SinkWriter w = sink.open(0, 1)) {
      w.write(new Record(change, new Object[] {"insert", 1L, 1L}, 5));
      w.write(new Record(change, new Object[] {"update", 1L, 2L}, 6));
      w.write(new Record(change, new Object[] {"delete", 1L, null}, 7));
      w.commit();
    }

    List<ConsumerRecord<byte[], byte[]>> read = consumeAll("group-totals", 2, 3);
    assertThat(read).extracting(r -> new String(r.key(), StandardCharsets.UTF_8)).containsOnly("{\"auction\":1}");
    assertThat(read).extracting(r -> r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8))
        .containsExactly("{\"auction\":1,\"bids\":1}", "{\"auction\":1,\"bids\":2}", null);
  }

  private static Record windowResult(long auction, long window) {
    return new Record(WINDOW_RESULT, new Object[] {auction, window * 60_000, (window + 1) * 60_000,
        auction * 100 + window}, Record.NO_TIMESTAMP);
  }

  private static CollectingOutput readUntil(SourceConnector source, SourceSplit split, int expected) {
    CollectingOutput out = new CollectingOutput();
    try (SplitReader reader = source.open(split)) {
      await(() -> {
        int n = reader.read(out, 4);
        assertThat(n).isBetween(0, 4);
        return out.records.size() + out.malformed.size() >= expected;
      });
    }
    return out;
  }

  private static List<ConsumerRecord<byte[], byte[]>> consumeAll(String topic, int partitions, int expected) {
    Map<String, Object> c = Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
      List<TopicPartition> tps = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        tps.add(new TopicPartition(topic, p));
      }
      consumer.assign(tps);
      consumer.seekToBeginning(tps);
      await(() -> {
        consumer.poll(Duration.ofMillis(200)).forEach(read::add);
        return read.size() >= expected;
      });
    }
    return read;
  }

  /** Polls {@code condition} until it holds; fails after {@link #DEADLINE}. */
  private static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within " + DEADLINE);
      }
      Thread.onSpinWait();
    }
  }

  private static KafkaProducer<String, String> producer() {
    return new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
  }
}
