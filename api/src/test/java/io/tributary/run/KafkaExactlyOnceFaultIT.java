package io.tributary.run;

import io.tributary.boot.LocalRun;
import io.tributary.scheduler.master.RestorePolicy;
import static io.tributary.run.FaultRuns.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.checkpoint.CheckpointMetadata;
import io.tributary.connectors.kafka.KafkaBroker;
import io.tributary.worker.task.ConnectorFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end exactly-once into Kafka (contract C10) against a real broker: a keyed window job with
 * an exactly-once Kafka sink whose source fails once; a {@code read_committed} consumer sees every
 * result exactly once. Restarting the finished job at a lower parallelism from its latest
 * checkpoint ends at once and leaves no transaction open.
 */
class KafkaExactlyOnceFaultIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final int PARTITIONS = 3;
  private static final String PREFIX = "bids-eo";
  private static KafkaBroker kafka;

  @TempDir
  Path tmp;

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

  @Timeout(90)
  @Test
  void everyResultIsCommittedExactlyOnceThroughAFailure() throws Exception {
    String topic = "bids-per-auction";
    List<String> expected = runWithOneFailure(topic);
    List<String> committed = readCommitted(topic);
    assertThat(committed).as("read_committed").containsExactlyElementsOf(expected);
    FaultRuns.assertOneResultPerKeyAndWindow(committed, "auction");
    assertNoOpenTransactions(topic);
  }

  @Timeout(90)
  @Test
  void restartingTheFinishedJobAtLowerParallelismEndsAtOnceAndLeavesNoTransactionOpen() throws Exception {
    String topic = "bids-restarted";
    List<String> expected = runWithOneFailure(topic);

    RunEvents again = new RunEvents();
    CheckpointMetadata last;
    long start = System.nanoTime();
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec(topic), 1), 200, RestorePolicy.LATEST,
            ConnectorFactory.standard(), again)) {
      last = runner.run();
    }
    System.out.println("restart at parallelism 1:\n" + again.timeline());
    assertThat(again.timeline()).contains("restoring from checkpoint");
    assertThat(last.tasks()).hasSize(2).allMatch(t -> t.finished() && t.parallelism() == 1);
    assertThat(again.restarts).isEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the finished job ends at once; %s", again.timeline())
        .isLessThan(DEADLINE);
    assertThat(readCommitted(topic)).as("nothing written again").containsExactlyElementsOf(expected);
    assertNoOpenTransactions(topic);
  }

  /**
   * Runs the job at parallelism 3 into {@code topic}, its source failing once after two checkpoints.
   *
   * @return the output of a run without failures, sorted
   */
  private List<String> runWithOneFailure(String topic) throws Exception {
    kafka.createTopic(topic, PARTITIONS);
    List<String> expected = FaultRuns.reference(
        plan(CheckpointFaultIT.bidsPerAuction(tmp.resolve("reference"), "heap", 0), null), tmp.resolve("reference"));
    FailingSources sources = new FailingSources(1);
    RunEvents events = new RunEvents((n, md) -> {
      if (n == 2) {
        sources.arm();
      }
    });
    try (CheckpointDir checkpoints = new CheckpointDir(tmp.resolve("checkpoints"));
        LocalRun runner = checkpoints.runner(plan(spec(topic), 3), 200, RestorePolicy.NONE, sources, events)) {
      runner.run();
    }
    System.out.println("run with a failure:\n" + events.timeline());
    assertThat(sources.failures()).as(events.timeline()).isEqualTo(1);
    assertThat(events.restarts).hasSize(1);
    return expected;
  }

  private static String spec(String topic) {
    return """
        name: bids-to-kafka
        parallelism: 3
        checkpoints: {interval: 200ms}
        sources:
          bids:
            type: nexmark
            kind: bid
            events: 20000
            maxRecordsPerSecond: 8000
            eventTime: {field: dateTime, maxOutOfOrderness: 100ms}
        operators:
          - id: per-auction
            input: bids
            keyBy: [auction]
            window: {type: tumbling, size: 500ms}
            aggregate: {bids: "count(*)", top: "max(price)"}
        sinks:
          out:
            input: per-auction
            type: kafka
            bootstrapServers: "%s"
            topic: %s
            keyFields: [auction]
            delivery: exactly-once
            transactionalIdPrefix: %s
        state: {backend: heap}
        """.formatted(kafka.bootstrapServers(), topic, PREFIX + "-" + topic);
  }

  /**
   * Everything a read_committed consumer sees, read up to the log end of every partition, sorted: it
   * gets there only when no transaction is open (the last stable offset is the log end).
   */
  private static List<String> readCommitted(String topic) {
    List<TopicPartition> partitions = IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(topic, p))
        .toList();
    Map<TopicPartition, Long> logEnd;
    try (KafkaConsumer<String, String> c = consumer("read_uncommitted")) {
      logEnd = new HashMap<>(c.endOffsets(partitions));
    }
    List<String> read = new ArrayList<>();
    try (KafkaConsumer<String, String> c = consumer("read_committed")) {
      c.assign(partitions);
      c.seekToBeginning(partitions);
      FaultRuns.await("a read_committed consumer reaches the log end " + logEnd, DEADLINE, () -> {
        c.poll(Duration.ofMillis(100)).forEach(r -> read.add(r.value()));
        return partitions.stream().allMatch(tp -> c.position(tp) >= logEnd.get(tp));
      });
    }
    read.sort(null);
    return read;
  }

  private static KafkaConsumer<String, String> consumer(String isolation) {
    return new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000),
        new StringDeserializer(), new StringDeserializer());
  }

  /** No transaction of the sink writing {@code topic} is open. */
  private static void assertNoOpenTransactions(String topic) throws Exception {
    try (Admin admin = kafka.admin()) {
      List<String> open = admin.listTransactions(new ListTransactionsOptions().filterStates(List.of(
              TransactionState.ONGOING, TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT)))
          .all().get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).stream()
          .map(TransactionListing::transactionalId)
          .filter(id -> id.startsWith(PREFIX + "-" + topic + "-"))
          .toList();
      assertThat(open).as("open transactions of the job's sink").isEmpty();
    }
  }
}
