package io.tributary.connect.kafka;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A sink writing each record as a JSON object to a Kafka topic. The message key is the JSON object
 * of {@code keyFields} (null when none are given, so Kafka spreads messages).
 *
 * <p><b>At-least-once</b> (the default): every subtask has an idempotent producer with {@code
 * acks=all}; {@link SinkWriter#commit()} and {@link SinkWriter#preCommit} flush it and fail if any
 * send failed.
 *
 * <p><b>Exactly-once</b> (contract C10): every subtask writes into Kafka transactions with
 * transactional ids {@code <transactionalIdPrefix>-<subtask>-<attempt>-<slot>} (a slot is one
 * producer of a small per-writer pool; usually slots 0 and 1). {@link SinkWriter#preCommit} flushes
 * the open transaction and returns a committable naming it; {@link #commit} commits it. Readers
 * with {@code isolation.level=read_committed} see records only once committed.
 *
 * <p><b>Limitation.</b> The Kafka 4.3.1 client has no public two-phase-commit API (its {@code
 * KafkaProducer} lacks {@code prepareTransaction}, {@code initTransactions(boolean)} and {@code
 * completeTransaction}; only the config key and {@code PreparedTxnState} are there), and a new
 * producer of a transactional id always aborts what is open under it. So a pre-committed
 * transaction can be committed only by the producer that wrote it, which this sink object keeps
 * alive (even after its writer closes) until the transaction is committed or aborted. Consequence:
 * {@link #commit} and {@link #recover} must be called on the same {@code KafkaSink} object, in the
 * same process, as the writers. If that process died after a checkpoint completed but before
 * {@link #commit} reached it, the checkpoint's still-open transactions cannot be committed any more:
 * {@link #recover} aborts them and fails with a {@link ConnectorException} naming them (those
 * records are lost, not duplicated). Transactions also must not outlive {@code transaction.timeout.ms}
 * (default here 15 minutes, the broker's default maximum) between pre-commit and commit.
 */
public final class KafkaSink implements SinkConnector {
  /** Delivery guarantee of a Kafka sink. */
  public enum Delivery {
    AT_LEAST_ONCE,
    EXACTLY_ONCE
  }

  /** A transaction's producer id and epoch while it is open. */
  record OpenTransaction(long producerId, int epoch) {}

  private static final long ADMIN_TIMEOUT_MS = 30_000;
  private static final String DEFAULT_TRANSACTION_TIMEOUT_MS = "900000";

  private final String sinkId;
  private final String topic;
  private final List<String> keyFields;
  private final Map<String, Object> producerConfig;
  private final Delivery delivery;
  private final String transactionalIdPrefix;
  private final Pattern transactionalIdPattern;
  /** Every live transactional producer of this sink's writers, by transactional id. */
  private final Map<String, KafkaTransactionalSinkWriter> writers = new ConcurrentHashMap<>();
  private Admin admin;

  /**
   * An at-least-once sink.
   *
   * @param extra further producer properties; they override the defaults
   */
  public KafkaSink(String sinkId, String bootstrapServers, String topic, List<String> keyFields,
      Map<String, String> extra) {
    this(sinkId, bootstrapServers, topic, keyFields, extra, Delivery.AT_LEAST_ONCE, null);
  }

  /**
   * @param extra further producer properties; they override the defaults
   * @param transactionalIdPrefix for exactly-once: unique among all jobs and sinks writing to the
   *     cluster (recovery aborts open transactions of earlier attempts under it); null for {@code
   *     tributary-<sinkId>}
   */
  public KafkaSink(String sinkId, String bootstrapServers, String topic, List<String> keyFields,
      Map<String, String> extra, Delivery delivery, String transactionalIdPrefix) {
    this.sinkId = sinkId;
    this.topic = topic;
    this.keyFields = List.copyOf(keyFields);
    this.delivery = delivery;
    this.transactionalIdPrefix = transactionalIdPrefix != null ? transactionalIdPrefix : "tributary-" + sinkId;
    this.transactionalIdPattern =
        Pattern.compile(Pattern.quote(this.transactionalIdPrefix) + "-(\\d+)-(\\d+)-(\\d+)");
    Map<String, Object> c = new HashMap<>();
    c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    c.put(ProducerConfig.ACKS_CONFIG, "all");
    c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    c.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    if (delivery == Delivery.EXACTLY_ONCE) {
      c.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, DEFAULT_TRANSACTION_TIMEOUT_MS);
    }
    c.putAll(extra);
    this.producerConfig = Map.copyOf(c);
  }

  @Override
  public SinkWriter open(int subtaskIndex, int parallelism) {
    return open(subtaskIndex, parallelism, 0);
  }

  @Override
  public SinkWriter open(int subtaskIndex, int parallelism, long attempt) {
    Map<String, Object> c = new HashMap<>(producerConfig);
    if (delivery == Delivery.EXACTLY_ONCE) {
      return new KafkaTransactionalSinkWriter(this, sinkId, topic, keyFields, c,
          transactionalIdPrefix + "-" + subtaskIndex + "-" + attempt);
    }
    c.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "tributary-" + sinkId + "-" + subtaskIndex);
    return new KafkaSinkWriter(sinkId, topic, keyFields, c);
  }

  /**
   * Commits the pre-committed transactions {@code committables} name (and, per writer, every earlier
   * one). Idempotent: a transaction committed already is skipped.
   *
   * @throws ConnectorException if one is still open but its producer is not in this object (see the
   *     limitation above)
   */
  @Override
  public void commit(List<String> committables) {
    List<KafkaCommittable> unreachable = commitAll(parse(committables));
    if (!unreachable.isEmpty()) {
      throw new ConnectorException("kafka sink '" + sinkId + "': cannot commit " + describe(unreachable)
          + ": their producers are gone and the Kafka client cannot commit another producer's transaction");
    }
  }

  /**
   * Commits {@code committables}, aborts this sink's other pre-committed transactions, and aborts
   * every transaction still open under the transactional id prefix that an attempt before {@code
   * attempt} left (found with {@code Admin.listTransactions}, so any earlier parallelism is covered,
   * not only up to {@code maxPreviousParallelism}): a producer initialising transactions on that id
   * fences the old one and waits until the abort is done.
   *
   * @throws ConnectorException after aborting everything, if some of {@code committables} could not
   *     be committed because their producers are gone (see the limitation above)
   */
  @Override
  public void recover(List<String> committables, int maxPreviousParallelism, long attempt) {
    if (delivery != Delivery.EXACTLY_ONCE) {
      return;
    }
    List<KafkaCommittable> restored = parse(committables);
    List<KafkaCommittable> unreachable = commitAll(restored);
    for (KafkaTransactionalSinkWriter w : Set.copyOf(writers.values())) {
      w.abortPending(restored);
    }
    for (String id : openTransactionalIds()) {
      Matcher m = transactionalIdPattern.matcher(id);
      if (m.matches() && Long.parseLong(m.group(2)) < attempt) {
        fence(id);
      }
    }
    if (!unreachable.isEmpty()) {
      throw new ConnectorException("kafka sink '" + sinkId + "': " + describe(unreachable)
          + " were pre-committed by a process that is gone and the Kafka client cannot commit another "
          + "producer's transaction; they were aborted, so the records they held are missing from topic '"
          + topic + "'");
    }
  }

  /** The open transaction of {@code transactionalId}, as its coordinator reports it. */
  OpenTransaction describeOpen(String transactionalId) {
    TransactionDescription d = describeTransaction(transactionalId);
    if (d == null || d.state() != TransactionState.ONGOING) {
      throw new ConnectorException("kafka sink '" + sinkId + "': transaction " + transactionalId
          + " is " + (d == null ? "unknown" : d.state()) + ", expected it open");
    }
    return new OpenTransaction(d.producerId(), d.producerEpoch());
  }

  void register(String transactionalId, KafkaTransactionalSinkWriter writer) {
    writers.put(transactionalId, writer);
  }

  void forget(String transactionalId) {
    writers.remove(transactionalId);
  }

  /** Commits what it can; returns the committables still open on the broker but not committable here. */
  private List<KafkaCommittable> commitAll(List<KafkaCommittable> committables) {
    List<KafkaCommittable> unreachable = new ArrayList<>();
    List<KafkaCommittable> sorted = new ArrayList<>(committables);
    sorted.sort(Comparator.comparingLong(KafkaCommittable::checkpointId));
    for (KafkaCommittable c : sorted) {
      KafkaTransactionalSinkWriter w = writers.get(c.transactionalId());
      if (w != null && w.commitThrough(c)) {
        continue;
      }
      if (w == null) {
        TransactionDescription d = describeTransaction(c.transactionalId());
        if (d != null && d.state() == TransactionState.ONGOING && d.producerId() == c.producerId()
            && d.producerEpoch() == c.epoch()) {
          unreachable.add(c);
        }
      }
      // Else committed already: by its writer, or by an earlier commit of the same committable.
    }
    return unreachable;
  }

  private List<String> openTransactionalIds() {
    try {
      return admin().listTransactions(new ListTransactionsOptions().filterStates(List.of(
              TransactionState.ONGOING, TransactionState.PREPARE_ABORT, TransactionState.PREPARE_COMMIT)))
          .all().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS).stream()
          .map(TransactionListing::transactionalId)
          .filter(id -> transactionalIdPattern.matcher(id).matches())
          .sorted()
          .toList();
    } catch (ExecutionException | TimeoutException e) {
      throw adminFailure("listing open transactions", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectorException("kafka sink '" + sinkId + "': interrupted", e);
    }
  }

  /** Fences {@code transactionalId}'s producers and aborts its open transaction. */
  private void fence(String transactionalId) {
    new TransactionalProducer(sinkId, topic, transactionalId, producerConfig).close();
  }

  /** Null when the coordinator does not know {@code transactionalId} (never used, or expired). */
  private TransactionDescription describeTransaction(String transactionalId) {
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

  /** Lazily created and never closed: a sink has no end of life in the connector SPI. */
  private synchronized Admin admin() {
    if (admin == null) {
      Map<String, Object> c = new HashMap<>(producerConfig);
      c.keySet().retainAll(AdminClientConfig.configNames());
      c.put(AdminClientConfig.CLIENT_ID_CONFIG, "tributary-" + transactionalIdPrefix + "-admin");
      admin = Admin.create(c);
    }
    return admin;
  }

  private ConnectorException adminFailure(String what, Exception e) {
    Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
    return new ConnectorException("kafka sink '" + sinkId + "': " + what + " failed: " + cause.getMessage(), cause);
  }

  private List<KafkaCommittable> parse(List<String> committables) {
    List<KafkaCommittable> parsed = new ArrayList<>();
    for (String s : committables) {
      if (s != null) {
        parsed.add(KafkaCommittable.parse(sinkId, s));
      }
    }
    return parsed;
  }

  private static String describe(List<KafkaCommittable> cs) {
    return "transactions " + cs.stream()
        .map(c -> c.transactionalId() + " (checkpoint " + c.checkpointId() + ")")
        .toList();
  }
}
