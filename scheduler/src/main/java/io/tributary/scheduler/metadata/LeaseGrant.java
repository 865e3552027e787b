package io.tributary.scheduler.metadata;

import java.time.Instant;

/**
 * Proof that {@code holder} held a {@link Lease} as of its last acquire or renew.
 *
 * @param key the lease's item key
 * @param holder who holds it
 * @param epoch the fencing epoch of this tenure: larger than that of every earlier tenure, kept by
 *     renewals; stamp it on fenced writes (see {@link FencedWrites})
 * @param expiresAt when the lease lapses unless renewed, by the lease's clock
 * @param version the lease item's version this grant was written as; renew and release are
 *     conditional on it
 */
public record LeaseGrant(String key, String holder, long epoch, Instant expiresAt, long version) {
  /**
   * Whether the grant is still in force at {@code now}. A holder should renew well before
   * {@link #expiresAt()} and stop acting once this is false; clocks of different machines differ,
   * which is why writes that matter are also fenced by {@link #epoch()}.
   */
  public boolean isValidAt(Instant now) {
    return now.isBefore(expiresAt);
  }
}
