package io.tributary.scheduler.spec;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Keyed state settings.
 *
 * @param backend {@code forst} (default: RocksDB with durable files in the object store) or
 *     {@code heap}
 * @param allowNonRestoredState whether a restore may leave behind the state of operators the job no
 *     longer has (by id), as Flink's {@code --allowNonRestoredState}; null (left out of the
 *     fingerprint, so specs written before it keep theirs) or false: such a restore is refused
 */
public record StateSpec(String backend,
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean allowNonRestoredState) {
  public static final StateSpec DEFAULT = new StateSpec("forst");

  public StateSpec(String backend) {
    this(backend, null);
  }

  /** Whether a restore may leave the state of operators the job no longer has behind. */
  public boolean allowsNonRestoredState() {
    return Boolean.TRUE.equals(allowNonRestoredState);
  }
}
