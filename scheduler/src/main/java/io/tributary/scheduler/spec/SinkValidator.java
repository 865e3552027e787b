package io.tributary.scheduler.spec;

import io.tributary.scheduler.spec.internal.Pointers;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Checks the properties of one sink that only make sense together: a {@code kafka} sink's {@code
 * delivery} and the settings that go with it. Only what the spec alone decides; whether the job
 * can run a delivery (checkpoints, timeouts) is the planner's check.
 *
 * <ul>
 *   <li>{@code delivery: upsert} needs {@code keyFields} (unless its input is an upsert stream,
 *       whose key they default to): the message key is the JSON object of these fields, so a
 *       replayed result overwrites its earlier copy. There is no default (the
 *       key of a window's result would be its {@code keyBy} fields plus {@code window_start} and
 *       {@code window_end}, but a sink may read from anything, so the user names them).
 *   <li>{@code transactionalIdPrefix} and {@code transactionTimeout} apply to {@code delivery:
 *       exactly-once} only.
 *   <li>The transaction timeout is set once: {@code transactionTimeout}, or the producer setting
 *       {@code properties.transaction.timeout.ms}, not both.
 * </ul>
 */
final class SinkValidator {
  /** The Kafka producer setting a kafka sink's {@code transactionTimeout} becomes. */
  static final String PRODUCER_TRANSACTION_TIMEOUT = "transaction.timeout.ms";

  private SinkValidator() {}

  /** @param upsertInput whether the sink reads an upsert stream, whose key is the default of keyFields */
  static void check(SinkSpec sink, boolean upsertInput, List<SpecError> errors) {
    if (sink == null || !"kafka".equals(sink.type())) {
      return;
    }
    String at = Pointers.child("/sinks", sink.id());
    Map<String, Object> p = sink.properties();
    Object delivery = p.getOrDefault("delivery", "at-least-once");
    if ("upsert".equals(delivery) && !upsertInput
        && !(p.get("keyFields") instanceof Collection<?> keys && !keys.isEmpty())) {
      errors.add(new SpecError(at + "/keyFields", "is required for delivery: upsert: each result's Kafka key is "
          + "the JSON object of these fields, so that a replayed result overwrites its earlier copy; list the fields "
          + "that identify a result, for a window aggregate its keyBy fields plus window_start and window_end"));
    }
    for (String field : List.of("transactionalIdPrefix", "transactionTimeout")) {
      if (p.containsKey(field) && !"exactly-once".equals(delivery)) {
        errors.add(new SpecError(at + "/" + field, "applies only to delivery: exactly-once"));
      }
    }
    if (p.containsKey("transactionTimeout") && p.get("properties") instanceof Map<?, ?> producer
        && producer.containsKey(PRODUCER_TRANSACTION_TIMEOUT)) {
      errors.add(new SpecError(Pointers.child(at + "/properties", PRODUCER_TRANSACTION_TIMEOUT),
          "set the transaction timeout once, with transactionTimeout"));
    }
  }
}
