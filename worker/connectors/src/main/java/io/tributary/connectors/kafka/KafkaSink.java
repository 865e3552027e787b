package io.tributary.connectors.kafka;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.connectors.internal.ConnectorProperties;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A sink writing each record as a JSON object to a Kafka topic. The message key is the JSON object
 * of {@code keyFields}, in their order (null when none are given, so Kafka spreads messages).
 *
 * <p><b>At-least-once</b> (the default): every subtask has an idempotent producer with {@code
 * acks=all}; {@link SinkWriter#commit()} and {@link SinkWriter#preCommit} flush it and fail if any
 * send failed. After a restore, what was written since the restored checkpoint is written again.
 *
 * <p><b>Upsert</b>: at-least-once writing with a key on every message ({@code keyFields} are
 * required), so a replayed result overwrites the earlier copy of itself: a compacted topic, or a
 * consumer keeping the last value per key, sees each result once (create the topic with {@code
 * cleanup.policy=compact} to have Kafka keep only the last value). The key fields must identify a
 * result (for a window aggregate: its {@code keyBy} fields plus {@code window_start} and {@code
 * window_end}) and the results must be deterministic; the same key always lands in the same
 * partition while the topic's partition count stays the same.
 *
 * <p><b>Exactly-once</b> (contract C10): records go into Kafka transactions; readers with {@code
 * isolation.level=read_committed} see them only once committed. {@link SinkWriter#preCommit}
 * flushes the open transaction and returns a {@link KafkaCommittable} (transactional id, producer id,
 * epoch and start time as the coordinator reports them), and {@link #commit} commits it: through the
 * writer's producer when it lives in this object, else, in a new process or a fresh {@code
 * KafkaSink}, through a new producer that takes the transaction over ({@link ProducerInternals}, the
 * technique of Apache Flink's Kafka sink; Kafka 4.3.1 has no public API for it). Committing a
 * transaction that is no longer open does nothing, so commit and recover are idempotent. In normal
 * operation call {@link #commit} on the object whose writers pre-committed: that returns their
 * producers to their pools, while a commit through another object leaves them parked for good.
 *
 * <p><b>Transactional ids.</b> {@code <transactionalIdPrefix>-<subtask>-<attempt>-<slot>}: one
 * family per sink subtask and attempt ({@link #open(int, int, long)}), so no two attempts share an
 * id; the slot numbers a small per-writer pool of producers (usually 0 and 1: one writing while the
 * other's pre-committed transaction waits for its commit). The prefix (default {@code
 * tributary-<sink id>}) must be unique among all jobs and sinks writing to the cluster, since
 * recovery aborts every open transaction under it that an earlier attempt left.
 *
 * <p><b>Timeout.</b> A transaction must be committed within {@code transaction.timeout.ms} of its
 * first record, or the coordinator aborts it and its records are lost (logged as an error when
 * recovery finds it). Set it with {@code transactionTimeout} (default 15 minutes, the broker's
 * default {@code transaction.max.timeout.ms}, which caps it) larger than the checkpoint interval
 * plus the longest expected recovery.
 */
public final class KafkaSink implements SinkConnector {
  /** Delivery guarantee of a Kafka sink. */
  public enum Delivery {
    AT_LEAST_ONCE,
    EXACTLY_ONCE,
    UPSERT;

    /** {@code at-least-once}, {@code exactly-once} or {@code upsert}, as specs write it. */
    public String specName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** The default {@code transaction.timeout.ms}: 15 minutes, the broker's default maximum. */
  public static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 15 * 60_000;

  private final String sinkId;
  private final String topic;
  private final List<String> keyFields;
  private final Map<String, Object> producerConfig;
  private final Delivery delivery;
  /** The input is an upsert stream: see {@link #fromProperties(String, ConnectorProperties, List)}. */
  private boolean changelog;
  private final String transactionalIdPrefix;
  private final Pattern transactionalIdPattern;
  private final KafkaTransactions transactions;
  /** Every live transactional producer of this sink's writers, by transactional id. */
  private final Map<String, KafkaTransactionalSinkWriter> writers = new ConcurrentHashMap<>();

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
   * @param keyFields required (non-empty) for {@link Delivery#UPSERT}
   * @param extra further producer properties; they override the defaults (for exactly-once,
   *     {@code transaction.timeout.ms} is {@link #DEFAULT_TRANSACTION_TIMEOUT_MS} unless given here)
   * @param transactionalIdPrefix for exactly-once: unique among all jobs and sinks writing to the
   *     cluster (recovery aborts open transactions of earlier attempts under it); null for {@code
   *     tributary-<sinkId>}
   * @throws ConnectorException if upsert has no key fields
   */
  public KafkaSink(String sinkId, String bootstrapServers, String topic, List<String> keyFields,
      Map<String, String> extra, Delivery delivery, String transactionalIdPrefix) {
    if (delivery == Delivery.UPSERT && keyFields.isEmpty()) {
      throw new ConnectorException("kafka sink '" + sinkId + "': delivery: upsert needs keyFields, the fields "
          + "that identify a result (they become the message key)");
    }
    this.sinkId = sinkId;
    this.topic = topic;
    this.keyFields = List.copyOf(keyFields);
    this.delivery = delivery;
    this.transactionalIdPrefix = transactionalIdPrefix != null ? transactionalIdPrefix : "tributary-" + sinkId;
    this.transactionalIdPattern =
        Pattern.compile(Pattern.quote(this.transactionalIdPrefix) + "-(\\d+)-(\\d+)-(\\d+)");
    Map<String, Object> c = new HashMap<>();
    c.put(ProducerConfig.ACKS_CONFIG, "all");
    c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    c.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    if (delivery == Delivery.EXACTLY_ONCE) {
      c.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, String.valueOf(DEFAULT_TRANSACTION_TIMEOUT_MS));
    }
    c.putAll(extra);
    // the endpoint and serializers are the sink's own, never overridden by extra settings
    c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    c.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    this.producerConfig = Map.copyOf(c);
    this.transactions = new KafkaTransactions(sinkId, topic, producerConfig);
  }

  /**
   * The sink a spec's {@code kafka} sink properties describe: {@code bootstrapServers}, {@code
   * topic}, {@code keyFields}, {@code properties} (producer settings), {@code delivery}
   * ({@code at-least-once} (default), {@code exactly-once} or {@code upsert}), and for exactly-once
   * only {@code transactionalIdPrefix} (default {@code tributary-<sink id>}) and {@code
   * transactionTimeout} (a duration, default 15m; becomes {@code transaction.timeout.ms}).
   *
   * @throws ConnectorException naming the property to fix
   */
  public static KafkaSink fromProperties(String sinkId, ConnectorProperties p) {
    return fromProperties(sinkId, p, null);
  }

  /**
   * The same for the sink of an upsert stream keyed by {@code upsertKey} (null: an append-only
   * stream): {@code delivery} must be {@code upsert}; {@code keyFields} default to the upsert key;
   * each message's value is the record without {@code _op}, and a delete's value is null (a
   * tombstone), so a compacted topic keeps the latest result per key.
   */
  public static KafkaSink fromProperties(String sinkId, ConnectorProperties p, List<String> upsertKey) {
    p.allowOnly("bootstrapServers", "topic", "keyFields", "properties", "delivery", "transactionalIdPrefix",
        "transactionTimeout");
    String name = p.choice("delivery", Delivery.AT_LEAST_ONCE.specName(), Delivery.AT_LEAST_ONCE.specName(),
        Delivery.EXACTLY_ONCE.specName(), Delivery.UPSERT.specName());
    Delivery delivery = Delivery.valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    for (String onlyExactlyOnce : List.of("transactionalIdPrefix", "transactionTimeout")) {
      if (delivery != Delivery.EXACTLY_ONCE && p.has(onlyExactlyOnce)) {
        throw p.error("property '" + onlyExactlyOnce + "' needs delivery: exactly-once");
      }
    }
    List<String> keyFields = p.stringList("keyFields");
    if (upsertKey != null) {
      if (delivery != Delivery.UPSERT) {
        throw p.error("its input is an upsert stream: it needs delivery: upsert");
      }
      keyFields = p.has("keyFields") ? keyFields : upsertKey;
    } else if (delivery == Delivery.UPSERT && keyFields.isEmpty()) {
      throw p.error("delivery: upsert needs property 'keyFields', the fields that identify a result");
    }
    Map<String, String> extra = new HashMap<>(p.stringMap("properties"));
    if (p.has("transactionTimeout")) {
      if (extra.containsKey(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)) {
        throw p.error("set the transaction timeout with 'transactionTimeout' or with 'properties."
            + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG + "', not both");
      }
      long timeout = p.millis("transactionTimeout", 0);
      if (timeout <= 0) {
        throw p.error("property 'transactionTimeout' must be a positive duration such as 15m");
      }
      extra.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, String.valueOf(timeout));
    }
    KafkaSink sink = new KafkaSink(sinkId, p.string("bootstrapServers"), p.string("topic"), keyFields, extra,
        delivery, p.string("transactionalIdPrefix", null));
    sink.changelog = upsertKey != null;
    return sink;
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
    return new KafkaSinkWriter(sinkId, topic, keyFields, c, changelog);
  }

  /** Releases the admin client used to commit and recover transactions. */
  @Override
  public void close() {
    transactions.close();
  }

  /**
   * Commits the pre-committed transactions {@code committables} name (and, per writer of this
   * object, every earlier one), in checkpoint order. A transaction whose producer is not in this
   * object (another process wrote it) is committed by a producer that takes it over. Idempotent: a
   * transaction no longer open is skipped.
   *
   * @throws ConnectorException if a commit failed (retrying may help)
   */
  @Override
  public void commit(List<String> committables) {
    commitAll(parse(committables));
  }

  /**
   * Commits {@code committables} (those of the restored checkpoint, possibly written by a process
   * that is gone), aborts this object's other pre-committed transactions, then aborts every
   * transaction still open under the transactional id prefix that an attempt before {@code attempt}
   * left: pre-committed ones not among {@code committables}, and ones never pre-committed. They are
   * found with {@code Admin.listTransactions}, so every earlier parallelism (not only up to {@code
   * maxPreviousParallelism}) and pool slot is covered; a producer initialising transactions on each
   * such id fences the old producers and waits until the abort is done. Afterwards no transaction of
   * an earlier attempt holds back {@code read_committed} consumers. Idempotent.
   */
  @Override
  public void recover(List<String> committables, int maxPreviousParallelism, long attempt) {
    if (delivery != Delivery.EXACTLY_ONCE) {
      return;
    }
    List<KafkaCommittable> restored = parse(committables);
    commitAll(restored);
    for (KafkaTransactionalSinkWriter w : Set.copyOf(writers.values())) {
      w.abortPending(restored);
    }
    for (String id : transactions.openTransactionalIds(id -> transactionalIdPattern.matcher(id).matches())) {
      Matcher m = transactionalIdPattern.matcher(id);
      if (m.matches() && Long.parseLong(m.group(2)) < attempt) {
        transactions.fence(id);
      }
    }
  }

  /** The settings every producer of this sink starts from. */
  Map<String, Object> producerConfig() {
    return producerConfig;
  }

  /** The open transaction of {@code transactionalId}, as its coordinator reports it. */
  KafkaCommittable describeOpen(String transactionalId, long checkpointId) {
    return transactions.describeOpen(transactionalId, checkpointId);
  }

  void register(String transactionalId, KafkaTransactionalSinkWriter writer) {
    writers.put(transactionalId, writer);
  }

  void forget(String transactionalId) {
    writers.remove(transactionalId);
  }

  private void commitAll(List<KafkaCommittable> committables) {
    List<KafkaCommittable> sorted = new ArrayList<>(committables);
    sorted.sort(Comparator.comparingLong(KafkaCommittable::checkpointId));
    for (KafkaCommittable c : sorted) {
      KafkaTransactionalSinkWriter w = writers.get(c.transactionalId());
      if (w != null) {
        // Its producer lives here and owns the id: it commits c now, or did so (or aborted it) before.
        w.commitThrough(c);
      } else {
        transactions.commitAsNewOwner(c);
      }
    }
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
}
