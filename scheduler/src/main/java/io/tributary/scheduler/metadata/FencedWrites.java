package io.tributary.scheduler.metadata;

import java.util.Optional;

/**
 * Writes fenced by a {@link Lease} epoch, from single-item conditional writes (contract C9: a
 * job's latest-checkpoint pointer advances by a conditional write naming the expected previous
 * checkpoint and the coordinator's epoch).
 *
 * <p>Each fenced item carries the epoch of its last writer. A write names the version it read
 * (the expected previous value) and its own epoch; it is refused with {@link FencedException} if
 * the item already carries a newer epoch, and with {@link ConflictException} if the item changed
 * since it was read. Because the put is conditional on the version that was checked, no newer
 * epoch can slip in between the check and the write.
 *
 * <p>An item that a new holder has not written yet still carries the old epoch. A new holder
 * therefore {@link #fence fences} the items it is going to own before it acts; from then on a
 * stale holder's writes to them are refused.
 */
public final class FencedWrites {
  private FencedWrites() {}

  /** The fenced value at {@code key}, if any. */
  public static Optional<FencedValue> read(MetadataStore store, String key) {
    return store.get(key).map(FencedValue::decode);
  }

  /**
   * Writes {@code body} at {@code key} stamped with {@code epoch}, if the item is still at
   * {@code expectedVersion} (0: must not exist) and carries no newer epoch.
   *
   * @return the new version
   * @throws FencedException if the item carries a newer epoch than {@code epoch}
   * @throws ConflictException if the item is not at {@code expectedVersion}
   */
  public static long write(MetadataStore store, String key, long epoch, byte[] body, long expectedVersion) {
    FencedValue next = new FencedValue(epoch, body, 0);
    Optional<Item> current = store.get(key);
    if (current.isPresent()) {
      checkEpoch(key, epoch, FencedValue.decode(current.get()));
    }
    long actual = current.map(Item::version).orElse(0L);
    if (actual != expectedVersion) {
      throw new ConflictException(key, expectedVersion, actual);
    }
    return store.put(key, next.encode(), expectedVersion);
  }

  /**
   * Raises the epoch stamped on the item to {@code epoch}, keeping its body, so that writers of
   * older epochs are refused from now on. An absent item is created with an empty body (which
   * readers take as "nothing written yet"), so that a stale writer cannot create it either. Does
   * nothing if the item is already at {@code epoch}.
   *
   * @throws FencedException if the item already carries a newer epoch
   */
  public static void fence(MetadataStore store, String key, long epoch) {
    while (true) {
      Optional<FencedValue> current = read(store, key);
      if (current.isPresent() && current.get().epoch() == epoch) {
        return;
      }
      byte[] body = current.map(FencedValue::body).orElse(new byte[0]);
      try {
        write(store, key, epoch, body, current.map(FencedValue::version).orElse(0L));
        return;
      } catch (ConflictException e) {
        // changed since read: look again
      }
    }
  }

  private static void checkEpoch(String key, long epoch, FencedValue current) {
    if (current.epoch() > epoch) {
      throw new FencedException(key, epoch, current.epoch());
    }
  }
}
