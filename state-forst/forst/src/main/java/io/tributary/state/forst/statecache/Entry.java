package io.tributary.state.forst.statecache;

/**
 * One cached (state, key, namespace) entry; it knows its namespace, so that a slot with one entry
 * needs no map.
 *
 * <ul>
 *   <li>{@code value}: the object, {@code null} when the entry is absent (a tombstone when dirty, a
 *       remembered miss when clean), or {@link #UNLOADED} when it is known to exist below but was
 *       not read yet (a scan listed it);
 *   <li>{@code dirty}: the layer below does not have {@code value} yet;
 *   <li>{@code stored}: the layer below may hold a value for it, so removing it must write a
 *       tombstone; false when it is known not to (then a removal just forgets the new value).
 *   <li>{@code partial}: {@code value} is not the value but the list of accumulators added to it
 *       ({@link CachedWindowState#add}) since it was last read or written down, in order; the
 *       value is what the layer below holds (maybe nothing) with them folded in. Always dirty and
 *       stored.
 * </ul>
 */
final class Entry {
  /** Marks an entry that exists below but whose value was not read yet. */
  static final Object UNLOADED = new Object() {
    @Override
    public String toString() {
      return "UNLOADED";
    }
  };

  final Object ns;
  Object value;
  boolean dirty;
  boolean stored;
  boolean partial;

  Entry(Object ns, Object value, boolean dirty, boolean stored) {
    this.ns = ns;
    this.value = value;
    this.dirty = dirty;
    this.stored = stored;
  }

  /** Whether the entry holds a value (maybe not read yet). */
  boolean live() {
    return value != null;
  }
}
