package io.tributary.scheduler.spec;

/**
 * Keyed state settings.
 *
 * @param backend {@code forst} (default: RocksDB with durable files in the object store) or
 *     {@code heap}
 */
public record StateSpec(String backend) {
  public static final StateSpec DEFAULT = new StateSpec("forst");
}
