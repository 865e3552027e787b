package io.tributary.scheduler.metadata;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A named lease with a fencing epoch, built on single-item conditional writes: for electing the
 * control-plane replica that runs reconcilers, checkpoint coordination and autoscaling (DESIGN
 * §7).
 *
 * <p>The lease is one item (for example {@code leases/control-plane/leader}) holding its holder,
 * epoch and expiry as JSON. Guarantees, given that all contenders' clocks agree within the margin
 * by which holders stop early:
 *
 * <ul>
 *   <li>At most one contender holds a valid grant at any instant: an acquire succeeds only if the
 *       item is absent, expired or released, and only one of several concurrent acquires can win
 *       the conditional write.
 *   <li>Every successful {@link #tryAcquire()} has a larger epoch than any grant before it (even
 *       the same holder's); {@link #renew} keeps the epoch. The item is never deleted, so epochs
 *       never go back.
 *   <li>A grant that was taken over can no longer renew or release: its conditional write names a
 *       version that is gone.
 * </ul>
 *
 * <p>Thread-safe as far as the store is; one instance per holder and lease.
 */
public final class Lease {
  private final MetadataStore store;
  private final String key;
  private final String holder;
  private final Duration ttl;
  private final Clock clock;

  /**
   * @param key the lease item's key, see {@link Keys}
   * @param holder this contender's identity, for example a replica's host name and process id
   * @param ttl how long a grant lasts after acquire or renew; positive
   * @param clock the time source for expiry (injectable for tests)
   */
  public Lease(MetadataStore store, String key, String holder, Duration ttl, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.key = Keys.check(key);
    this.holder = Objects.requireNonNull(holder, "holder");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("lease ttl must be positive: " + ttl);
    }
    this.ttl = ttl;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Takes the lease with a new epoch if nobody else holds it now; empty if another holder's grant
   * is still in force or another contender won the race.
   */
  public Optional<LeaseGrant> tryAcquire() {
    Instant now = clock.instant();
    Optional<Item> current = store.get(key);
    long epoch = 1;
    if (current.isPresent()) {
      LeaseRecord held = LeaseRecord.decode(current.get());
      if (!held.holder().equals(holder) && now.toEpochMilli() < held.expiresAtMillis()) {
        return Optional.empty();
      }
      epoch = held.epoch() + 1;
    }
    return write(new LeaseRecord(holder, epoch, expiry(now)), current.map(Item::version).orElse(0L));
  }

  /**
   * Extends {@code grant} by the ttl from now, keeping its epoch; empty if the lease was taken
   * over or released since (then the holder must stop acting on it).
   */
  public Optional<LeaseGrant> renew(LeaseGrant grant) {
    checkOwn(grant);
    return write(new LeaseRecord(holder, grant.epoch(), expiry(clock.instant())), grant.version());
  }

  /**
   * Gives the lease up so that another contender can take it at once; does nothing if it was
   * already taken over.
   */
  public void release(LeaseGrant grant) {
    checkOwn(grant);
    write(new LeaseRecord(holder, grant.epoch(), 0), grant.version());
  }

  /** The current grant of whoever holds the lease, if its item exists (valid or not). */
  public Optional<LeaseGrant> current() {
    return store.get(key).map(item -> grant(LeaseRecord.decode(item), item.version()));
  }

  private Optional<LeaseGrant> write(LeaseRecord record, long expectedVersion) {
    try {
      long version = store.put(key, record.encode(), expectedVersion);
      return Optional.of(grant(record, version));
    } catch (ConflictException e) {
      return Optional.empty();
    }
  }

  private LeaseGrant grant(LeaseRecord record, long version) {
    return new LeaseGrant(
        key, record.holder(), record.epoch(), Instant.ofEpochMilli(record.expiresAtMillis()), version);
  }

  private long expiry(Instant now) {
    return now.plus(ttl).toEpochMilli();
  }

  private void checkOwn(LeaseGrant grant) {
    if (!grant.key().equals(key) || !grant.holder().equals(holder)) {
      throw new IllegalArgumentException("grant " + grant + " is not for " + holder + " on " + key);
    }
  }
}
