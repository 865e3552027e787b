package io.tributary.spec;

/**
 * Periodic checkpoints (parsed and validated; not yet acted on).
 *
 * @param intervalMillis time between checkpoint triggers, greater than 0
 * @param mode {@code exactly-once} (default) or {@code at-least-once}
 */
public record CheckpointSpec(long intervalMillis, String mode) {}
