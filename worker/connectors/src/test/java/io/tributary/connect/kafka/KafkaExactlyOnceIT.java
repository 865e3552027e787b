package io.tributary.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.Connectors;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.plan.SinkPlan;
import io.tributary.stream.Record;
import io.tributary.stream.Schema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The exactly-once Kafka sink against a real broker, read back with {@code read_committed}. */
class KafkaExactlyOnceIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Schema SCHEMA = Schema.of("w", "n");
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
  void preCommittedRecordsBecomeVisibleOnceOnCommitAndTheRestNever() {
    kafka.createTopic("eo-basic", 2);
    SinkConnector sink = sink("eo-basic", "basic");
    String committable;
    try (SinkWriter w = sink.open(0, 1, 0)) {
      write(w, "a", 0, 10);
      committable = w.preCommit(1);
      assertThat(committable).contains("\"transactionalId\":\"basic-0-0-0\"");
      assertThat(committedEnd("eo-basic", 2)).as("nothing visible before the commit").containsOnly(0L);
      write(w, "a", 10, 15);
    } // closes without a pre-commit: records 10..14 are aborted

    sink.commit(List.of(committable));
    sink.commit(List.of(committable)); // idempotent

    assertThat(readCommitted("eo-basic", 2)).containsExactlyInAnyOrderElementsOf(values("a", 0, 10));
    assertNoOpenTransactions("basic", "eo-basic", 2);
  }

  @Test
  void writingGoesOnAfterPreCommitAndALaterCheckpointCommitsEarlierOnes() {
    kafka.createTopic("eo-later", 1);
    SinkConnector sink = Connectors.sink(new SinkPlan("out", "kafka", "json", Map.of(
        "bootstrapServers", kafka.bootstrapServers(), "topic", "eo-later",
        "delivery", "exactly-once", "transactionalIdPrefix", "later")));
    try (SinkWriter w = sink.open(0, 1, 0)) {
      write(w, "a", 0, 5);
      String first = w.preCommit(1);
      write(w, "a", 5, 8);
      String second = w.preCommit(2);
      assertThat(second).contains("later-0-0-1");
      String third = w.preCommit(3); // nothing new: names the latest waiting transaction
      assertThat(third).contains("later-0-0-1").contains("\"checkpointId\":3");

      sink.commit(List.of(third)); // checkpoint 3 covers 1 and 2
      sink.commit(List.of(first, second));

      write(w, "a", 8, 10); // reuses a committed slot
      assertThat(w.preCommit(4)).contains("later-0-0-");
      w.commit(); // end of a bounded job: everything
    }
    assertThat(readCommitted("eo-later", 1)).containsExactlyElementsOf(values("a", 0, 10));
    assertNoOpenTransactions("later", "eo-later", 1);
  }

  @Test
  void restartAtLowerParallelismCommitsTheRestoredCheckpointAndAbortsTheRest() {
    kafka.createTopic("eo-restart", 3);
    KafkaSink sink = sink("eo-restart", "restart");
    List<SinkWriter> old = IntStream.range(0, 3).mapToObj(i -> sink.open(i, 3, 0)).toList();
    for (int i = 0; i < 3; i++) {
      write(old.get(i), "w" + i, 0, 4);
    }
    List<String> checkpoint1 = preCommitAll(old, 1);
    sink.commit(checkpoint1);
    for (int i = 0; i < 3; i++) {
      write(old.get(i), "w" + i, 4, 7);
    }
    List<String> checkpoint2 = preCommitAll(old, 2); // completes, but its commit never arrives
    for (int i = 0; i < 3; i++) {
      write(old.get(i), "w" + i, 7, 9); // after the last pre-commit: lost with the failure
    }
    preCommitAll(old.subList(0, 1), 3); // checkpoint 3 never completes
    write(old.get(0), "w0", 9, 10);
    old.forEach(SinkWriter::close); // the failure

    sink.recover(checkpoint2, 3, 1);
    sink.recover(checkpoint2, 3, 1); // a second restore of the same checkpoint is harmless

    try (SinkWriter a = sink.open(0, 2, 1); SinkWriter b = sink.open(1, 2, 1)) {
      write(a, "n0", 0, 2);
      write(b, "n1", 0, 2);
      sink.commit(List.of(a.preCommit(3), b.preCommit(3)));
    }

    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      expected.addAll(values("w" + i, 0, 7));
    }
    expected.addAll(values("n0", 0, 2));
    expected.addAll(values("n1", 0, 2));
    assertThat(readCommitted("eo-restart", 3)).containsExactlyInAnyOrderElementsOf(expected);
    assertNoOpenTransactions("restart", "eo-restart", 3);
  }

  @Test
  void recoveryInAnotherProcessAbortsWhatTheDeadOneLeftOpen() {
    kafka.createTopic("eo-dead", 2);
    // The dead process: its sink object and producers are out of reach of the new one.
    KafkaSink dead = sink("eo-dead", "dead");
    List<SinkWriter> deadWriters = IntStream.range(0, 3).mapToObj(i -> dead.open(i, 3, 0)).toList();
    for (int i = 0; i < 3; i++) {
      write(deadWriters.get(i), "w" + i, 0, 3);
    }
    write(deadWriters.get(0), "w0", 3, 5); // a transaction that was never pre-committed

    KafkaSink restarted = sink("eo-dead", "dead");
    restarted.recover(List.of(), 3, 1);
    assertNoOpenTransactions("dead", "eo-dead", 2);

    KafkaSink dead2 = sink("eo-dead", "dead");
    List<SinkWriter> deadWriters2 = IntStream.range(0, 2).mapToObj(i -> dead2.open(i, 2, 1)).toList();
    write(deadWriters2.get(0), "x0", 0, 3);
    write(deadWriters2.get(1), "x1", 0, 3);
    List<String> completed = preCommitAll(deadWriters2, 7); // checkpoint 7 completes, then the process dies
    write(deadWriters2.get(1), "x1", 3, 5);

    // Kafka 4.3.1 offers no public API to commit another producer's transaction: recovery aborts them
    // and says which checkpoint's output is lost.
    KafkaSink restarted2 = sink("eo-dead", "dead");
    assertThatThrownBy(() -> restarted2.recover(completed, 2, 2))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("dead-0-1-0 (checkpoint 7)")
        .hasMessageContaining("dead-1-1-0 (checkpoint 7)")
        .hasMessageContaining("missing from topic 'eo-dead'");
    restarted2.recover(completed, 2, 2); // nothing left to abort or to report
    assertNoOpenTransactions("dead", "eo-dead", 2);

    try (SinkWriter w = restarted2.open(0, 1, 2)) {
      write(w, "y0", 0, 2);
      restarted2.commit(List.of(w.preCommit(8)));
    }
    assertThat(readCommitted("eo-dead", 2)).containsExactlyInAnyOrderElementsOf(values("y0", 0, 2));
    deadWriters.forEach(SinkWriter::close);
    deadWriters2.forEach(SinkWriter::close);
  }

  private static List<String> preCommitAll(List<SinkWriter> writers, long checkpointId) {
    return writers.stream().map(w -> w.preCommit(checkpointId)).toList();
  }

  private static KafkaSink sink(String topic, String prefix) {
    return new KafkaSink("out", kafka.bootstrapServers(), topic, List.of("w"), Map.of(),
        KafkaSink.Delivery.EXACTLY_ONCE, prefix);
  }

  private static void write(SinkWriter w, String writer, long from, long to) {
    for (long n = from; n < to; n++) {
      w.write(new Record(SCHEMA, new Object[] {writer, n}, Record.NO_TIMESTAMP));
    }
  }

  private static List<String> values(String writer, long from, long to) {
    List<String> v = new ArrayList<>();
    for (long n = from; n < to; n++) {
      v.add("{\"w\":\"" + writer + "\",\"n\":" + n + "}");
    }
    return v;
  }

  private static KafkaConsumer<byte[], byte[]> consumer(String isolation) {
    return new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
  }

  private static List<TopicPartition> partitions(String topic, int partitions) {
    return IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
  }

  /** Per partition, the end a read_committed consumer may read to (the last stable offset). */
  private static List<Long> committedEnd(String topic, int partitions) {
    try (KafkaConsumer<byte[], byte[]> c = consumer("read_committed")) {
      c.assign(partitions(topic, partitions));
      Map<TopicPartition, Long> end = c.endOffsets(partitions(topic, partitions));
      return partitions(topic, partitions).stream().map(end::get).toList();
    }
  }

  /** Everything a read_committed consumer sees, read up to the last stable offset of every partition. */
  private static List<String> readCommitted(String topic, int partitions) {
    List<String> read = new ArrayList<>();
    List<TopicPartition> tps = partitions(topic, partitions);
    try (KafkaConsumer<byte[], byte[]> c = consumer("read_committed")) {
      c.assign(tps);
      c.seekToBeginning(tps);
      Map<TopicPartition, Long> end = c.endOffsets(tps);
      await(() -> {
        c.poll(Duration.ofMillis(100)).forEach(r -> read.add(new String(r.value(), StandardCharsets.UTF_8)));
        return tps.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
      });
    }
    return read;
  }

  /**
   * No transaction under {@code prefix} is open, and the last stable offset of every partition is
   * its log end, so read_committed consumers are not held back.
   */
  private static void assertNoOpenTransactions(String prefix, String topic, int partitions) {
    try (Admin admin = kafka.admin()) {
      List<String> open = admin.listTransactions(new ListTransactionsOptions().filterStates(List.of(
              TransactionState.ONGOING, TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT)))
          .all().get(30, TimeUnit.SECONDS).stream()
          .map(TransactionListing::transactionalId)
          .filter(id -> id.startsWith(prefix + "-"))
          .toList();
      assertThat(open).as("open transactions").isEmpty();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    Map<TopicPartition, Long> logEnd;
    try (KafkaConsumer<byte[], byte[]> c = consumer("read_uncommitted")) {
      c.assign(partitions(topic, partitions));
      logEnd = new HashMap<>(c.endOffsets(partitions(topic, partitions)));
    }
    assertThat(committedEnd(topic, partitions))
        .containsExactlyElementsOf(partitions(topic, partitions).stream().map(logEnd::get).toList());
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
}
