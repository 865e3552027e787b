package io.tributary.state;

import java.util.Arrays;

/**
 * Values by {@link Key} (a heap state's keys of one key group, the state cache's slots): an open
 * addressing hash map (linear probing, deletion by shifting back, at most half full) with the keys'
 * hashes in an array beside keys and values. A probe compares hashes from that array and reads a
 * key only when its hash matches, and an entry costs three array slots and no node object: in a
 * {@code HashMap} every lookup went through a node to reach the key, and every key's node was one
 * more object for the collector.
 *
 * <p>The keys of one key group share the low bits of their murmur3 hash (the key group is that hash
 * modulo the maximum parallelism), so slots are taken from the high bits of the hash times the
 * golden ratio. Not thread-safe; null keys and values are not allowed.
 *
 * @param <S> the value per key
 */
public final class KeyTable<S> {
  private Key[] keys = new Key[8];
  private Object[] values = new Object[8];
  private int[] hashes = new int[8];
  private int mask = 7;
  private int shift = 32 - 3;
  private int size;

  public int size() {
    return size;
  }

  /** The value of {@code key}, or null. */
  @SuppressWarnings("unchecked")
  public S get(Key key) {
    int i = find(key);
    return i < 0 ? null : (S) values[i];
  }

  /** Sets the value of {@code key}. */
  public void put(Key key, S value) {
    int h = key.hashCode();
    int i = slot(h);
    for (Key k; (k = keys[i]) != null; i = (i + 1) & mask) {
      if (hashes[i] == h && (k == key || k.equals(key))) {
        values[i] = value;
        return;
      }
    }
    keys[i] = key;
    values[i] = value;
    hashes[i] = h;
    if (++size > (mask + 1) >> 1) {
      grow();
    }
  }

  /** Removes {@code key} and its value, if it is here. */
  public void remove(Key key) {
    int i = find(key);
    if (i >= 0) {
      removeAt(i);
    }
  }

  /** The slot holding {@code key}, or -1. */
  private int find(Key key) {
    int h = key.hashCode();
    for (int i = slot(h); keys[i] != null; i = (i + 1) & mask) {
      if (hashes[i] == h && (keys[i] == key || keys[i].equals(key))) {
        return i;
      }
    }
    return -1;
  }

  /** The number of slots: entries are at the indexes below it where {@link #keyAt} is not null. */
  public int capacity() {
    return keys.length;
  }

  /** The key in slot {@code i}, or null when the slot is empty. */
  public Key keyAt(int i) {
    return keys[i];
  }

  /** The value in slot {@code i} (null when the slot is empty). */
  @SuppressWarnings("unchecked")
  public S valueAt(int i) {
    return (S) values[i];
  }

  /** Removes every entry. */
  public void clear() {
    Arrays.fill(keys, null);
    Arrays.fill(values, null);
    size = 0;
  }

  /** Empties slot {@code i}, shifting back the entries after it that probed past it. */
  private void removeAt(int i) {
    size--;
    int gap = i;
    for (int j = (i + 1) & mask; keys[j] != null; j = (j + 1) & mask) {
      int home = slot(hashes[j]);
      // j may move into the gap unless its home lies cyclically in (gap, j]
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        keys[gap] = keys[j];
        values[gap] = values[j];
        hashes[gap] = hashes[j];
        gap = j;
      }
    }
    keys[gap] = null;
    values[gap] = null;
  }

  private int slot(int h) {
    return (h * 0x9E3779B9) >>> shift;
  }

  private void grow() {
    Key[] oldKeys = keys;
    Object[] oldValues = values;
    int[] oldHashes = hashes;
    int capacity = oldKeys.length * 2;
    keys = new Key[capacity];
    values = new Object[capacity];
    hashes = new int[capacity];
    mask = capacity - 1;
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
    for (int k = 0; k < oldKeys.length; k++) {
      if (oldKeys[k] != null) {
        int i = slot(oldHashes[k]);
        while (keys[i] != null) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[k];
        values[i] = oldValues[k];
        hashes[i] = oldHashes[k];
      }
    }
  }
}
