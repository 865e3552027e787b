package io.tributary.scheduler.planner;

import io.tributary.plan.Durations;
import io.tributary.scheduler.spec.CheckpointSpec;
import io.tributary.scheduler.spec.JobSpec;
import io.tributary.scheduler.spec.SinkSpec;
import io.tributary.scheduler.spec.SpecError;
import io.tributary.scheduler.spec.internal.Pointers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether the job can give each sink the delivery it asks for. A {@code kafka} sink with {@code
 * delivery: exactly-once} writes into transactions that are committed when the checkpoint after
 * them completes, so:
 *
 * <ul>
 *   <li>the job needs {@code checkpoints};
 *   <li>its transaction timeout ({@code transactionTimeout}, else the producer setting {@code
 *       properties.transaction.timeout.ms}, else {@link #DEFAULT_TRANSACTION_TIMEOUT_MS}) must be
 *       larger than the checkpoint interval plus {@link #RESTART_ALLOWANCE_MS}. A transaction is
 *       open from its first record until the checkpoint after it completes (about one interval),
 *       and, when the job fails right then, until the restarted job commits it. Kafka aborts a
 *       transaction that outlives its timeout, and its records are lost.
 * </ul>
 *
 * <p>The broker caps transaction timeouts at its {@code transaction.max.timeout.ms}, 15 minutes by
 * default, and refuses producers asking for more: a larger {@code transactionTimeout} also needs
 * that broker setting raised, which a submit cannot check.
 */
final class DeliveryChecks {
  /**
   * How long a restart may take, on top of a checkpoint interval, before an exactly-once Kafka
   * sink's transactions time out: failure detection, rescheduling, restoring state and recovering
   * the sink (which commits the restored checkpoint's transactions). One minute.
   */
  static final long RESTART_ALLOWANCE_MS = 60_000;

  /**
   * An exactly-once Kafka sink's transaction timeout when the spec sets none: 15 minutes, the
   * broker's default {@code transaction.max.timeout.ms} (the connector's default as well).
   */
  static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 15 * 60_000;

  private DeliveryChecks() {}

  /** Every problem, empty if none; {@code spec} must have passed validation. */
  static List<SpecError> check(JobSpec spec) {
    List<SpecError> errors = new ArrayList<>();
    for (SinkSpec sink : spec.sinks().values()) {
      if ("kafka".equals(sink.type()) && "exactly-once".equals(sink.properties().get("delivery"))) {
        exactlyOnce(sink, spec.checkpoints(), Pointers.child("/sinks", sink.id()), errors);
      }
    }
    return errors;
  }

  private static void exactlyOnce(SinkSpec sink, CheckpointSpec checkpoints, String at, List<SpecError> errors) {
    if (checkpoints == null) {
      errors.add(new SpecError(at + "/delivery", "exactly-once delivery needs checkpoints: the sink commits its "
          + "Kafka transactions when a checkpoint completes; add for example 'checkpoints: {interval: 1m}', or use "
          + "delivery: upsert (with keyFields) or at-least-once"));
      return;
    }
    long timeout = transactionTimeout(sink);
    long needed = checkpoints.intervalMillis() + RESTART_ALLOWANCE_MS;
    if (timeout <= needed) {
      String set = sink.properties().containsKey("transactionTimeout") ? ""
          : producerTimeout(sink) != null ? " (from properties.transaction.timeout.ms)" : " (the default)";
      errors.add(new SpecError(at + "/transactionTimeout", "the transaction timeout " + text(timeout) + set
          + " must be larger than the checkpoint interval " + text(checkpoints.intervalMillis()) + " plus "
          + text(RESTART_ALLOWANCE_MS) + " allowed for a restart (" + text(needed) + "): a transaction stays open "
          + "until the checkpoint after it completes, and after a failure until the restarted job commits it; Kafka "
          + "aborts it when it times out, and its records are lost. Set a larger transactionTimeout (the broker "
          + "caps it at transaction.max.timeout.ms, 15m by default) or checkpoint more often"));
    }
  }

  /** The sink's effective transaction timeout in milliseconds. */
  private static long transactionTimeout(SinkSpec sink) {
    Map<String, Object> p = sink.properties();
    if (p.containsKey("transactionTimeout")) {
      return Durations.parseMillis(p.get("transactionTimeout"));
    }
    Object producer = producerTimeout(sink);
    if (producer != null) {
      try {
        return Long.parseLong(String.valueOf(producer).trim());
      } catch (NumberFormatException e) {
        return 0; // not a number of milliseconds: the producer would refuse it anyway
      }
    }
    return DEFAULT_TRANSACTION_TIMEOUT_MS;
  }

  /** The producer setting {@code properties.transaction.timeout.ms}, null if absent. */
  private static Object producerTimeout(SinkSpec sink) {
    return sink.properties().get("properties") instanceof Map<?, ?> producer
        ? producer.get("transaction.timeout.ms") : null;
  }

  /** {@code 15m}, {@code 90s}, {@code 1500ms}: the largest whole unit. */
  private static String text(long millis) {
    if (millis % 3_600_000 == 0 && millis > 0) {
      return millis / 3_600_000 + "h";
    }
    if (millis % 60_000 == 0 && millis > 0) {
      return millis / 60_000 + "m";
    }
    return millis % 1_000 == 0 && millis > 0 ? millis / 1_000 + "s" : millis + "ms";
  }
}
