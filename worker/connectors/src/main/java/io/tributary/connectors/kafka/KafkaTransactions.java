package io.tributary.connectors.kafka;

import io.tributary.connect.ConnectorException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka sink's transactions as their coordinator sees them, and what can be done to them from
 * outside the producers that wrote them: describe one, commit one a dead process pre-committed,
 * fence the transactional ids earlier attempts left transactions open under. Thread-safe.
 */
final class KafkaTransactions {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaTransactions.class);
  private static final long ADMIN_TIMEOUT_MS = 30_000;
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final String sinkId;
  private final String topic;
  private final Map<String, Object> producerConfig;
  private Admin admin;

  KafkaTransactions(String sinkId, String topic, Map<String, Object> producerConfig) {
    this.sinkId = sinkId;
    this.topic = topic;
    this.producerConfig = producerConfig;
  }

  /**
   * The open transaction of {@code transactionalId} as a committable for {@code checkpointId}.
   *
   * @throws ConnectorException if the coordinator does not report it open
   */
  KafkaCommittable describeOpen(String transactionalId, long checkpointId) {
    TransactionDescription d = describe(transactionalId);
    if (d == null || d.state() != TransactionState.ONGOING) {
      throw new ConnectorException("kafka sink '" + sinkId + "': transaction " + transactionalId
          + " is " + (d == null ? "unknown" : d.state()) + ", expected it open");
    }
    return new KafkaCommittable(transactionalId, d.producerId(), d.producerEpoch(),
        d.transactionStartTimeMs().orElse(0), checkpointId);
  }

  /**
   * Commits the transaction {@code c} names with a new producer that takes it over (see {@link
   * ProducerInternals}), if it is still open. If it is not, it was committed before, which makes
   * this idempotent; or it was aborted (it outlived {@code transaction.timeout.ms}, or something
   * fenced its transactional id), which is logged as an error since its records are lost and
   * nothing can bring them back.
   *
   * @throws ConnectorException if it is open but committing failed (retrying may help)
   */
  void commitAsNewOwner(KafkaCommittable c) {
    TransactionDescription d = describe(c.transactionalId());
    if (!c.isOpenIn(d)) {
      reportIfAborted(c, d);
      return;
    }
    Map<String, Object> config = new HashMap<>(producerConfig);
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, c.transactionalId());
    config.put(ProducerConfig.CLIENT_ID_CONFIG, "tributary-" + c.transactionalId() + "-recovery");
    KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config);
    Duration close = Duration.ZERO; // a failed producer must not abort on close what another may commit
    try {
      producer.partitionsFor(topic); // talks to a broker: learns the cluster's transaction.version
      ProducerInternals.resume(producer, c.producerId(), (short) c.epoch());
      producer.commitTransaction();
      close = CLOSE_TIMEOUT;
    } catch (KafkaException e) {
      if (isCommitted(c, describe(c.transactionalId()))) {
        return; // someone else (the old process, late) committed it meanwhile
      }
      throw new ConnectorException("kafka sink '" + sinkId + "': committing transaction " + c.transactionalId()
          + " of checkpoint " + c.checkpointId() + " (left open by an earlier process) failed; retrying may help: "
          + e.getMessage(), e);
    } finally {
      producer.close(close);
    }
  }

  /**
   * The transactional ids {@code isOurs} accepts that have a transaction open or ending; found with
   * {@code Admin.listTransactions}, so whatever parallelism or producer pool wrote them.
   */
  List<String> openTransactionalIds(Predicate<String> isOurs) {
    try {
      return admin().listTransactions(new ListTransactionsOptions().filterStates(List.of(
              TransactionState.ONGOING, TransactionState.PREPARE_ABORT, TransactionState.PREPARE_COMMIT)))
          .all().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS).stream()
          .map(TransactionListing::transactionalId)
          .filter(isOurs)
          .sorted()
          .toList();
    } catch (ExecutionException | TimeoutException e) {
      throw adminFailure("listing open transactions", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectorException("kafka sink '" + sinkId + "': interrupted", e);
    }
  }

  /**
   * Fences {@code transactionalId}'s producers and aborts its open transaction: a new producer's
   * {@code initTransactions} bumps the epoch and waits until the abort is done.
   */
  void fence(String transactionalId) {
    new TransactionalProducer(sinkId, topic, transactionalId, producerConfig).close();
  }

  /** Null when the coordinator does not know {@code transactionalId} (never used, or expired). */
  TransactionDescription describe(String transactionalId) {
    try {
      return admin().describeTransactions(List.of(transactionalId)).description(transactionalId)
          .get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TransactionalIdNotFoundException) {
        return null;
      }
      throw adminFailure("describing transaction " + transactionalId, e);
    } catch (TimeoutException e) {
      throw adminFailure("describing transaction " + transactionalId, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectorException("kafka sink '" + sinkId + "': interrupted", e);
    }
  }

  /**
   * Whether {@code d} shows the transaction of {@code c} committed or committing: its producer id at
   * the epoch of {@code c} (protocol version 1) or one above it (version 2 bumps at the end).
   */
  private static boolean isCommitted(KafkaCommittable c, TransactionDescription d) {
    return d != null && d.producerId() == c.producerId()
        && (d.state() == TransactionState.COMPLETE_COMMIT || d.state() == TransactionState.PREPARE_COMMIT)
        && (d.producerEpoch() == c.epoch() || d.producerEpoch() == c.epoch() + 1);
  }

  /**
   * Logs when {@code d} shows that the transaction of {@code c} was aborted, not committed: the last
   * transaction of its producer id ended aborted at the epoch of {@code c} or one above (a timeout or
   * a fence bumps it once).
   */
  private void reportIfAborted(KafkaCommittable c, TransactionDescription d) {
    boolean aborted = d != null && d.producerId() == c.producerId()
        && (d.state() == TransactionState.COMPLETE_ABORT || d.state() == TransactionState.PREPARE_ABORT)
        && (d.producerEpoch() == c.epoch() || d.producerEpoch() == c.epoch() + 1);
    if (aborted) {
      LOG.error("kafka sink '{}': transaction {} of checkpoint {} was aborted before it could be committed, most "
          + "likely because it outlived transaction.timeout.ms ({} ms) before the job recovered; the records it held "
          + "are missing from topic '{}'",
          sinkId, c.transactionalId(), c.checkpointId(), d.transactionTimeoutMs(), topic);
    }
  }

  /** Closes the admin client, if one was created. */
  synchronized void close() {
    if (admin != null) {
      admin.close(java.time.Duration.ofSeconds(5));
      admin = null;
    }
  }

  /** Lazily created; closed with the sink ({@link KafkaSink#close()}). */
  private synchronized Admin admin() {
    if (admin == null) {
      Map<String, Object> c = new HashMap<>(producerConfig);
      c.keySet().retainAll(AdminClientConfig.configNames());
      c.put(AdminClientConfig.CLIENT_ID_CONFIG, "tributary-" + sinkId + "-transactions");
      admin = Admin.create(c);
    }
    return admin;
  }

  private ConnectorException adminFailure(String what, Exception e) {
    Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
    return new ConnectorException("kafka sink '" + sinkId + "': " + what + " failed: " + cause.getMessage(), cause);
  }
}
