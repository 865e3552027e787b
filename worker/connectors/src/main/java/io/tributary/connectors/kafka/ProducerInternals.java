package io.tributary.connectors.kafka;

import io.tributary.connect.ConnectorException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.internals.TransactionManager;
import org.apache.kafka.common.utils.ProducerIdAndEpoch;

/**
 * The one place that reaches into the Kafka client's internals: it lets a new producer take over a
 * transaction another producer (usually of a process that died) left open, so that it can commit
 * it. Kafka 4.3.1 has no public API for this: KIP-939's {@code initTransactions(boolean
 * keepPreparedTxn)}, {@code prepareTransaction} and {@code completeTransaction} are not public on
 * {@code KafkaProducer} (only {@code TransactionManager} has them, and they also need the broker's
 * {@code transaction.two.phase.commit.enable}). The technique is Apache Flink's ({@code
 * FlinkKafkaInternalProducer.resumeTransaction}).
 *
 * <p>Written against kafka-clients 4.3.1: it needs {@code KafkaProducer.transactionManager}, {@code
 * TransactionManager.transitionTo(State)}, its fields {@code producerIdAndEpoch} and {@code
 * transactionStarted}, and the states {@code INITIALIZING}, {@code READY} and {@code
 * IN_TRANSACTION}. {@code ProducerInternalsTest} checks them, so a client upgrade that moves them
 * fails the build rather than a recovery. At run time a mismatch is a {@link ConnectorException}.
 */
final class ProducerInternals {
  private static final String STATE_CLASS = TransactionManager.class.getName() + "$State";

  private ProducerInternals() {}

  /**
   * Makes {@code producer} (transactional, freshly created, {@code initTransactions} NOT called,
   * since that would abort the transaction) the owner of the open transaction of {@code producerId}
   * and {@code epoch} under its transactional id, as if it had begun it and sent to it; {@code
   * commitTransaction} then commits it. Call it after the producer has talked to a broker (for
   * example {@code partitionsFor}), so that it knows whether the cluster runs transaction protocol
   * version 2 and ends the transaction in the same protocol it was written with.
   */
  static void resume(KafkaProducer<?, ?> producer, long producerId, short epoch) {
    TransactionManager tm = transactionManager(producer);
    synchronized (tm) {
      transitionTo(tm, "INITIALIZING");
      set(tm, "producerIdAndEpoch", new ProducerIdAndEpoch(producerId, epoch));
      transitionTo(tm, "READY");
      transitionTo(tm, "IN_TRANSACTION");
      // Without it the producer would skip the EndTxn request: it believes nothing was sent.
      set(tm, "transactionStarted", true);
    }
    // As KafkaProducer.initTransactions does after its InitProducerId: reads transaction.version
    // from the brokers' finalized features without asking for a client-side epoch bump.
    tm.maybeUpdateTransactionV2Enabled(true);
  }

  /** Whether {@code producer} ends transactions with transaction protocol version 2 (KIP-890). */
  static boolean transactionV2(KafkaProducer<?, ?> producer) {
    return transactionManager(producer).isTransactionV2Enabled();
  }

  private static TransactionManager transactionManager(KafkaProducer<?, ?> producer) {
    Object tm = get(producer, KafkaProducer.class, "transactionManager");
    if (!(tm instanceof TransactionManager manager)) {
      throw new IllegalArgumentException("not a transactional producer");
    }
    return manager;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void transitionTo(TransactionManager tm, String state) {
    try {
      Class<Enum> states = (Class<Enum>) Class.forName(STATE_CLASS);
      Method m = TransactionManager.class.getDeclaredMethod("transitionTo", states);
      m.setAccessible(true);
      m.invoke(tm, Enum.valueOf(states, state));
    } catch (InvocationTargetException e) {
      throw incompatible("transition to " + state + " failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | IllegalArgumentException e) {
      throw incompatible("TransactionManager.transitionTo(" + state + ")", e);
    }
  }

  private static Object get(Object target, Class<?> type, String name) {
    try {
      Field f = type.getDeclaredField(name);
      f.setAccessible(true);
      return f.get(target);
    } catch (ReflectiveOperationException e) {
      throw incompatible(type.getSimpleName() + "." + name, e);
    }
  }

  private static void set(TransactionManager tm, String name, Object value) {
    try {
      Field f = TransactionManager.class.getDeclaredField(name);
      f.setAccessible(true);
      f.set(tm, value);
    } catch (ReflectiveOperationException e) {
      throw incompatible("TransactionManager." + name, e);
    }
  }

  private static ConnectorException incompatible(String what, Throwable cause) {
    return new ConnectorException("the kafka-clients library on the class path is not the version the kafka sink "
        + "was written for (4.3.1): cannot resume a transaction (" + what + ")", cause);
  }
}
