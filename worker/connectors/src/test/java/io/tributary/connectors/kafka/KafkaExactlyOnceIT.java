package io.tributary.connectors.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connectors.Connectors;
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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The exactly-once Kafka sink against a real broker, read back with {@code read_committed}; once
 * with each transaction protocol: version 2 (KIP-890, the default of Kafka 4 clusters: the epoch is
 * bumped when a transaction ends) and version 1 (older clusters: a producer's transactions share
 * one epoch).
 */
@ParameterizedClass(name = "transaction.version={0}")
@ValueSource(shorts = {2, 1})
class KafkaExactlyOnceIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Schema SCHEMA = Schema.of("w", "n");
  private static KafkaBroker kafka;

  @Parameter
  short transactionVersion;

  @BeforeParameterizedClassInvocation
  static void startKafka(short transactionVersion) throws Exception {
    kafka = KafkaBroker.start(Map.of("transaction.version", transactionVersion));
  }

  @AfterParameterizedClassInvocation
  static void stopKafka() {
    if (kafka != null) {
      kafka.close();
      kafka = null;
    }
  }

  @Test
  void producersUseTheTransactionProtocolUnderTest() {
    try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ProducerConfig.TRANSACTIONAL_ID_CONFIG, "protocol-probe",
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
      p.initTransactions();
      assertThat(ProducerInternals.transactionV2(p)).isEqualTo(transactionVersion == 2);
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
  void aFreshSinkCommitsWhatAFailedProcessPreCommittedExactlyOnce() {
    kafka.createTopic("eo-crash", 2);
    // The failed process: checkpoint 5 completes, its commit never arrives, the writers close on the
    // failure without committing. Its sink object is never used again.
    KafkaSink failed = sink("eo-crash", "crash");
    List<String> checkpoint5;
    try (SinkWriter a = failed.open(0, 2, 0); SinkWriter b = failed.open(1, 2, 0)) {
      write(a, "a", 0, 4);
      write(b, "b", 0, 3);
      checkpoint5 = preCommitAll(List.of(a, b), 5);
      write(b, "b", 3, 6); // after the checkpoint: replayed after the restore
    }
    assertThat(checkpoint5)
        .allSatisfy(c -> assertThat(c).contains("\"producerId\":", "\"epoch\":", "\"startTimeMs\":"));
    assertThat(committedEnd("eo-crash", 2)).as("nothing visible before the commit").containsOnly(0L);

    KafkaSink restarted = sink("eo-crash", "crash"); // as in a new process: none of the old producers
    restarted.recover(checkpoint5, 2, 1);

    List<String> expected = new ArrayList<>(values("a", 0, 4));
    expected.addAll(values("b", 0, 3));
    assertThat(readCommitted("eo-crash", 2)).containsExactlyInAnyOrderElementsOf(expected);
    assertNoOpenTransactions("crash", "eo-crash", 2);

    restarted.commit(checkpoint5); // committed already: harmless
    sink("eo-crash", "crash").commit(checkpoint5); // and from yet another process
    sink("eo-crash", "crash").recover(checkpoint5, 2, 2); // a second restore of the same checkpoint
    assertThat(readCommitted("eo-crash", 2)).containsExactlyInAnyOrderElementsOf(expected);
    assertNoOpenTransactions("crash", "eo-crash", 2);
  }

  @Test
  void recoveryAtParallelismOneAbortsEveryTransactionEarlierAttemptsLeftOpen() {
    kafka.createTopic("eo-lingering", 3);
    // Attempt 0 at parallelism 3: checkpoint 1 completes (it is restored later), checkpoint 2 is
    // pre-committed by two subtasks but never completes, more is written, then the process dies.
    KafkaSink first = sink("eo-lingering", "lingering");
    List<SinkWriter> old = IntStream.range(0, 3).mapToObj(i -> first.open(i, 3, 0)).toList();
    for (int i = 0; i < 3; i++) {
      write(old.get(i), "w" + i, 0, 3);
    }
    List<String> checkpoint1 = preCommitAll(old, 1);
    for (int i = 0; i < 3; i++) {
      write(old.get(i), "w" + i, 3, 5);
    }
    List<String> checkpoint2 = preCommitAll(old.subList(0, 2), 2); // pre-committed, not in the restored checkpoint
    write(old.get(0), "w0", 5, 7); // never pre-committed
    // Attempt 1 at parallelism 3 died while starting up, after its first records.
    KafkaSink second = sink("eo-lingering", "lingering");
    SinkWriter startingUp = second.open(2, 3, 1);
    write(startingUp, "s2", 0, 2);

    KafkaSink restarted = sink("eo-lingering", "lingering");
    restarted.recover(checkpoint1, 3, 2);
    assertNoOpenTransactions("lingering", "eo-lingering", 3);
    restarted.commit(checkpoint2); // too late: they were aborted, committing them changes nothing

    try (SinkWriter w = restarted.open(0, 1, 2)) {
      write(w, "n", 0, 2);
      restarted.commit(List.of(w.preCommit(3)));
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      expected.addAll(values("w" + i, 0, 3));
    }
    expected.addAll(values("n", 0, 2));
    assertThat(readCommitted("eo-lingering", 3)).containsExactlyInAnyOrderElementsOf(expected);
    assertNoOpenTransactions("lingering", "eo-lingering", 3);
    old.forEach(SinkWriter::close);
    startingUp.close();
  }

  @Test
  void aRestoredCheckpointNeverCommitsALaterTransactionOfTheSameProducer() {
    kafka.createTopic("eo-reuse", 1);
    KafkaSink crashed = sink("eo-reuse", "reuse");
    SinkWriter w = crashed.open(0, 1, 0);
    write(w, "a", 0, 3);
    List<String> checkpoint1 = List.of(w.preCommit(1));
    crashed.commit(checkpoint1); // by the writer's producer, which returns to the pool
    write(w, "a", 3, 5); // the same producer, under the same transactional id, begins the next one
    KafkaCommittable first = KafkaCommittable.parse("out", checkpoint1.get(0));
    KafkaCommittable next = KafkaCommittable.parse("out", w.preCommit(2)); // checkpoint 2 never completes
    assertThat(next.transactionalId()).isEqualTo(first.transactionalId());
    assertThat(next.producerId()).isEqualTo(first.producerId());
    if (transactionVersion == 1) {
      assertThat(next.epoch()).as("version 1: only the start time tells them apart").isEqualTo(first.epoch());
    } else {
      assertThat(next.epoch()).isGreaterThan(first.epoch());
    }

    sink("eo-reuse", "reuse").recover(checkpoint1, 1, 1); // in a new process, after a crash

    assertThat(readCommitted("eo-reuse", 1)).containsExactlyElementsOf(values("a", 0, 3));
    assertNoOpenTransactions("reuse", "eo-reuse", 1);
    w.close();
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

  /**
   * Everything a read_committed consumer sees, read up to the log end of every partition: it gets
   * there only when no transaction is open (the last stable offset is the log end).
   */
  private static List<String> readCommitted(String topic, int partitions) {
    List<String> read = new ArrayList<>();
    List<TopicPartition> tps = partitions(topic, partitions);
    Map<TopicPartition, Long> end = logEnd(topic, partitions);
    try (KafkaConsumer<byte[], byte[]> c = consumer("read_committed")) {
      c.assign(tps);
      c.seekToBeginning(tps);
      await("a read_committed consumer reaches the log end of " + topic + " " + end, () -> {
        c.poll(Duration.ofMillis(100)).forEach(r -> read.add(new String(r.value(), StandardCharsets.UTF_8)));
        return tps.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
      });
    }
    return read;
  }

  private static Map<TopicPartition, Long> logEnd(String topic, int partitions) {
    try (KafkaConsumer<byte[], byte[]> c = consumer("read_uncommitted")) {
      c.assign(partitions(topic, partitions));
      return new HashMap<>(c.endOffsets(partitions(topic, partitions)));
    }
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
    Map<TopicPartition, Long> logEnd = logEnd(topic, partitions);
    assertThat(committedEnd(topic, partitions))
        .containsExactlyElementsOf(partitions(topic, partitions).stream().map(logEnd::get).toList());
  }

  /** Polls {@code condition} until it holds; fails after {@link #DEADLINE}. */
  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + DEADLINE + ": " + what);
      }
      Thread.onSpinWait();
    }
  }
}
